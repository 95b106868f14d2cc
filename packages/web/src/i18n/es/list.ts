import type { CatalogueShape } from '@gatehouse/shared';
import type { list as zh } from '../zh/list.ts';

export const list: CatalogueShape<typeof zh> = {
  choose: 'Seleccione',
  enter: 'Introduzca',
  search: 'Buscar',
  reset: 'Restablecer',
  create: 'Añadir',
  edit: 'Editar',
  delete: 'Eliminar',
  batchDelete: 'Eliminar seleccionados',
  confirmDelete: '¿Eliminar este registro?',
  confirmBatchDelete: '¿Eliminar los {{count}} registros seleccionados?',
  confirm: 'Aceptar',
  cancel: 'Cancelar',
  save: 'Guardar',
  saved: 'Guardado',
  created: 'Añadido',
  deleted: '{{count}} eliminados',
  actions: 'Acciones',
  export: 'Exportar',
  exportDone: 'Exportación terminada: {{rows}} filas',
  exportFailed: 'La exportación ha fallado',
  exportContinues:
    'La exportación sigue en curso; descárguela desde el registro de exportaciones al terminar',
  exportPartsTitle: 'Exportar por partes',
  exportPartsConfirm:
    'Coinciden {{count}} filas, más de las {{max}} que admite un archivo. ¿Exportarlas en {{parts}} partes, un archivo de hasta {{max}} filas cada una?',
  exportPartsOk: 'Exportar en {{parts}} partes',
  exportPartsProgress: '{{finished}} de {{parts}} partes',
  exportPartsDone: 'Exportación terminada: {{parts}} archivos, {{rows}} filas',
  total: '{{total}} en total',
  totalMore: 'más de {{total}}',
  retainedFrom: 'Los registros anteriores a {{date}} se eliminaron según el plazo de conservación',
  loadFailed: 'No se pudo cargar; inténtelo de nuevo',
  maxDays: 'Como máximo {{days}} días',
  siteZone: 'Las horas son de la sede ({{zone}}, {{offset}})',
};
