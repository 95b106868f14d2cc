import { useEffect, useState, type ReactNode } from 'react';
import { Modal, Popconfirm, theme, type ModalProps, type PopconfirmProps } from 'antd';
import { Provider as MotionProvider } from '@rc-component/motion';
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
 * A page's popups animate only while their page is shown and settled. React's Activity (AppMain) tears a hidden page's
 * effects down and runs them again when it is shown; rc-motion takes that second run for a first mount, and with
 * motion on it draws nothing on the renders in between ("appear" not prepared yet). The dialog's panel is then
 * missing when the reveal's effects ask it for the focus, which throws (`contentRef.current?.focus is not a
 * function`) and fails the whole page: the operator came back to an error instead of the dialog as typed (seen in
 * shell-layout.e2e.ts under load, reproduced with Chromium's CPU throttled 8 times). So motion is off from the
 * moment the page leaves until the first effect after it is shown again; the operator's reduced-motion setting
 * (AntdProvider) still turns it off everywhere.
 */
function PageMotion({ children }: { children: ReactNode }) {
  const { active, _cacheKey } = useKeepAliveContext();
  const { token } = theme.useToken();
  const [settled, setSettled] = useState(active);
  // Unsettled as soon as the page is left, in that very render (state adjusted while rendering, React's pattern).
  if (!active && settled) setSettled(false);
  useEffect(() => {
    if (active) setSettled(true);
  }, [active]);
  const motion = token.motion !== false && (_cacheKey === '' || (active && settled));
  return <MotionProvider motion={motion}>{children}</MotionProvider>;
}

/**
 * A page's dialog. While away it takes no Escape: antd sends Escape to the newest open dialog or popup in the
 * whole document, so an Escape typed on another page (closing the menu search, say) closed this hidden dialog
 * and lost what was typed in it (seen in shell-layout.e2e.ts when the search's list had no popup open).
 */
export function PageModal({ rootClassName, keyboard, ...props }: ModalProps) {
  const away = useAway(rootClassName, props.open);
  return (
    <PageMotion>
      <Modal {...props} keyboard={away.away ? false : keyboard} rootClassName={away.rootClassName} />
    </PageMotion>
  );
}

/** A page's confirmation bubble (delete, batch actions); usually uncontrolled, so its state is followed here. */
export function PagePopconfirm({ rootClassName, onOpenChange, ...props }: PopconfirmProps) {
  const [shown, setShown] = useState(false);
  const away = useAway(rootClassName, props.open ?? shown);
  return (
    <PageMotion>
      <Popconfirm
        {...props}
        onOpenChange={(open) => {
          setShown(open);
          onOpenChange?.(open);
        }}
        rootClassName={away.rootClassName}
      />
    </PageMotion>
  );
}
