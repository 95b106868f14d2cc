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
function useAwayClass(rootClassName: string | undefined, open: boolean | undefined): string | undefined {
  const { active, _cacheKey } = useKeepAliveContext();
  // Outside a kept-alive page (no cache key) there is nothing to follow.
  const away = _cacheKey !== '' && !active && open === true;
  return [rootClassName, away ? 'page-popup-away' : ''].filter(Boolean).join(' ') || undefined;
}

/** A page's dialog. */
export function PageModal({ rootClassName, ...props }: ModalProps) {
  return <Modal {...props} rootClassName={useAwayClass(rootClassName, props.open)} />;
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
      rootClassName={useAwayClass(rootClassName, props.open ?? shown)}
    />
  );
}
