import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { PageLoader } from './route-types.ts';

const pages = new Map<PageLoader, LazyExoticComponent<ComponentType>>();

/** One lazy component per loader, so a page keeps its identity (and its cached state) across renders. */
export function lazyPage(loader: PageLoader): LazyExoticComponent<ComponentType> {
  let page = pages.get(loader);
  if (!page) {
    page = lazy(loader);
    pages.set(loader, page);
  }
  return page;
}

export function LazyPage({ loader }: { loader: PageLoader }) {
  const Page = lazyPage(loader);
  return <Page />;
}
