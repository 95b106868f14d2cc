import { useState } from 'react';
import { Modal, Popconfirm, type ModalProps, type PopconfirmProps } from 'antd';
import { useKeepAliveContext } from 'keepalive-for-react';

/**
 * Cached pages stay mounted while the user is on another tab (a tab click, Back, a typed address), and antd
 * renders dialogs and confirmations into <body>, so an open one would float over the next page. While its page
 * is away it is hidden, not closed: coming back shows it again with what was typed.
 *
 * Only an open one is hidden: one that is closing must stay displayed until its leave animation ends, or
 * antd never learns that it has closed and keeps (or re-shows) it.
 */
function useAway(
  rootClassName: string | undefined,
  open: boolean | undefined,
): { away: boolean; rootClassName: string | undefined } {
  const { active, _cacheKey } = useKeepAliveContext();
  // Outside a kept-alive page (no cache key) there is nothing to follow.
  const away = _cacheKey !== '' && !active && open === true;
  return {
    away,
    rootClassName: [rootClassName, away ? 'page-popup-away' : ''].filter(Boolean).join(' ') || undefined,
  };
}

/**
 * A page's dialog. While away it takes no Escape: antd sends Escape to the newest open dialog or popup in the
 * whole document, so an Escape typed on another page (closing the menu search, say) closed this hidden dialog
 * and lost what was typed in it (seen in shell-layout.e2e.ts when the search's list had no popup open).
 */
export function PageModal({ rootClassName, keyboard, ...props }: ModalProps) {
  const away = useAway(rootClassName, props.open);
  return <Modal {...props} keyboard={away.away ? false : keyboard} rootClassName={away.rootClassName} />;
}

/** A page's confirmation bubble (delete, batch actions); usually uncontrolled, so its state is followed here. */
export function PagePopconfirm({ rootClassName, onOpenChange, ...props }: PopconfirmProps) {
  const [shown, setShown] = useState(false);
  return (
    <Popconfirm
      {...props}
      onOpenChange={(open) => {
        setShown(open);
        onOpenChange?.(open);
      }}
      rootClassName={useAway(rootClassName, props.open ?? shown).rootClassName}
    />
  );
}
