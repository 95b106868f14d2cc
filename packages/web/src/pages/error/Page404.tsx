import { ErrorPage } from './ErrorPage.tsx';

export default function Page404() {
  return <ErrorPage code={404} />;
}
