import type { CatalogueShape } from '@gatehouse/shared';
import type { webhookUi as zh } from '../zh/webhookUi.ts';

export const webhookUi: CatalogueShape<typeof zh> = {
  keyword: 'URL o creador',
  state: {
    active: 'Entregando',
    disabled: 'Desactivado',
    failing: 'Fallando, desactivado',
  },
  field: {
    Url: 'URL',
    State: 'Estado',
    AreaIds: 'Áreas',
    Events: 'Eventos',
    Pending: 'En espera',
    FailingSince: 'Fallando desde',
    CreatedByName: 'Creado por',
    CreatedAt: 'Creado',
    Disabled: 'Desactivado',
  },
  urlHint:
    'Los eventos se envían aquí por POST; las direcciones privadas, de bucle local y de enlace local necesitan WEBHOOK_ALLOW_NETWORKS',
  disabledHint:
    'Una suscripción desactivada no recibe eventos nuevos; si falla durante un día se desactiva sola, y al activarla se reintenta lo pendiente',
  rotate: 'Nuevo secreto',
  confirmRotate:
    '¿Crear un nuevo secreto de firma? El anterior deja de valer al instante; el receptor debe verificar con el nuevo.',
  secretTitle: 'Secreto de firma del webhook',
  secretWarning:
    'Copie este secreto ahora y guárdelo bien. Se muestra solo esta vez y no podrá verse de nuevo al cerrar este diálogo; si se pierde, cree uno nuevo.',
  secretUse: 'El receptor verifica con él la cabecera webhook-signature (Standard Webhooks)',
  copyFailed: 'No se pudo copiar automáticamente; seleccione el secreto y cópielo a mano',
  secretDone: 'He guardado el secreto',
};
