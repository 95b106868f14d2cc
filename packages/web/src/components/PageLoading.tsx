import './page-loading.css';

/** Shown while a page chunk or the session loads; plain CSS, so the first screen needs no antd. */
export function PageLoading() {
  return (
    <div className="page-loading" role="progressbar" aria-busy="true">
      <span className="page-loading-spinner" />
    </div>
  );
}
