import { Component, lazy, Suspense, type ErrorInfo, type ReactNode } from 'react';
import { recordError } from '../core/error-collection.ts';

// The fallback (antd Result) loads only when a page has failed.
const ErrorFallback = lazy(() => import('./ErrorFallback.tsx'));

/** The first component named in React's component stack: the one that threw. */
export function componentName(componentStack: string | null | undefined): string {
  const match = /^\s*at (\S+)/m.exec(componentStack ?? '');
  return match?.[1] ?? '';
}

interface Props {
  children: ReactNode;
}

/** Catches a page's rendering errors, records them in the error log and shows a retry instead of a blank page. */
export class ErrorBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    recordError(error, componentName(info.componentStack), info.componentStack?.trim() ?? '');
  }

  override render() {
    if (this.state.error) {
      return (
        <Suspense fallback={null}>
          <ErrorFallback error={this.state.error} onRetry={() => this.setState({ error: null })} />
        </Suspense>
      );
    }
    return this.props.children;
  }
}
