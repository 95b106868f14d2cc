import { createRef } from 'react';
import type { KeepAliveRef } from 'keepalive-for-react';

/** The page cache of the main area, reachable from the tabs (refresh one, drop closed ones). */
export const aliveRef = createRef<KeepAliveRef>();
