import { Modal, type ModalProps } from 'antd';
import { useKeepAliveContext } from 'keepalive-for-react';

/**
 * A page's dialog. Cached pages stay mounted while the user is on another tab (a tab click, Back, a typed
 * address), and antd renders dialogs into <body>, so an open one would float over the next page. It is hidden
 * while its page is away, not closed: coming back shows it again with what was typed.
 */
export function PageModal({ rootClassName, ...props }: ModalProps) {
  const { active, _cacheKey } = useKeepAliveContext();
  // Outside a kept-alive page (no cache key) there is nothing to follow.
  const away = _cacheKey !== '' && !active;
  return (
    <Modal
      {...props}
      rootClassName={[rootClassName, away ? 'page-modal-away' : ''].filter(Boolean).join(' ') || undefined}
    />
  );
}
