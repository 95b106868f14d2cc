import type { CatalogueShape } from '@gatehouse/shared';
import type { apiKeyUi as zh } from '../zh/apiKeyUi.ts';

export const apiKeyUi: CatalogueShape<typeof zh> = {
  keyword: 'Nombre, prefijo o creador',
  state: {
    active: 'Activa',
    expired: 'Caducada',
    revoked: 'Revocada',
  },
  revoke: 'Revocar',
  confirmRevoke:
    '¿Revocar esta clave de API? Los sistemas que la usan serán rechazados al instante y no se puede restaurar.',
  revoked: 'Revocada: ningún servidor acepta ya esta clave',
  never: 'Nunca usada',
  noExpiry: 'No caduca',
  codesHint: 'Solo puede otorgar códigos de permiso que usted tenga',
  areasHint: 'La clave solo accede a estas áreas; solo puede elegir áreas que usted opera',
  expiresHint: 'Déjelo vacío para una clave que no caduca; pasado este momento sus peticiones se rechazan',
  secretTitle: 'Clave de API creada',
  secretWarning:
    'Copie esta clave ahora y guárdela en lugar seguro. Se muestra solo esta vez y no podrá verse de nuevo al cerrar este diálogo; si se pierde, revóquela y cree otra.',
  secretUse: 'Envíela en cada petición en la cabecera: Authorization: Bearer <clave>',
  copy: 'Copiar',
  copied: 'Copiada al portapapeles',
  copyFailed: 'No se pudo copiar automáticamente; seleccione la clave y cópiela a mano',
  secretDone: 'He guardado la clave',
  lastUsed: '{{time}} desde {{address}}',
};
