import type { ColumnDef, Row } from '../../../components/list-page/index.ts';
import { TwoLineCell } from '../cells.tsx';

/** What both visitor screens (the passes and the log) show of a pass: the visitor, their host and the card. */
interface PassPeople extends Row {
  VisitorName: string;
  Company: string | null;
  HostName: string | null;
  CardNumber: string;
}

/** The visitor (with their company), the host who invited them and the pass's card: the same cells on both screens. */
export function passPeopleColumns<T extends PassPeople>(sortByVisitor: boolean): ColumnDef<T>[] {
  return [
    {
      key: 'VisitorName',
      title: 'accessControl.field.VisitorName',
      ...(sortByVisitor ? { sort: 'VisitorName' } : {}),
      width: 170,
      render: (row) => <TwoLineCell main={row.VisitorName} sub={row.Company} />,
    },
    { key: 'HostName', title: 'accessControl.field.Host', width: 110 },
    {
      key: 'CardNumber',
      title: 'accessControl.field.CardNumber',
      width: 120,
      render: (row) => <span className="ac-card-number">{row.CardNumber}</span>,
    },
  ];
}
