import { ErrorPage } from './ErrorPage.tsx';

export default function Page401() {
  return <ErrorPage code={401} />;
}
