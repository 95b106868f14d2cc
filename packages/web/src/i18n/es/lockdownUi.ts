import type { CatalogueShape } from '@gatehouse/shared';
import type { lockdownUi as zh } from '../zh/lockdownUi.ts';

export const lockdownUi: CatalogueShape<typeof zh> = {
  mode: {
    lockdown: 'Cierre',
    evacuate: 'Evacuación',
  },
  banner: {
    lockdown: 'Esta área está cerrada: todas las puertas normalmente cerradas, ninguna tarjeta las abre',
    evacuate: 'Esta área se está evacuando: todas las puertas normalmente abiertas',
    detail: 'Desde {{time}}, por {{who}}: {{reason}}',
    confirmed: '{{confirmed}} de {{total}} puertas confirmadas por sus controladores',
    open: 'Monitor de puertas',
  },
  panel: {
    title: 'Cierre y evacuación',
    none: 'Esta área no está cerrada ni en evacuación',
    start: 'Cerrar o evacuar…',
    release: 'Liberar…',
    restoring: 'Liberada a las {{time}}; las puertas vuelven a su modo: {{confirmed}} de {{total}}',
  },
  startDialog: {
    title: 'Cerrar o evacuar esta área',
    lockdownHelp:
      'Cierre: todas las puertas normalmente cerradas, ninguna tarjeta las abre, horarios en pausa',
    evacuateHelp: 'Evacuación: todas las puertas normalmente abiertas, horarios en pausa',
    reason: 'Motivo',
    reasonPlaceholder:
      'Obligatorio: por qué (queda en el registro de operaciones y se envía a otros sistemas)',
    confirm: 'Confirmar',
    started: 'Enviado; cada puerta aparece confirmada cuando su controlador responde',
  },
  releaseDialog: {
    title: 'Liberar el cierre o la evacuación',
    help: 'Cada puerta vuelve a su propio modo, retardo y horarios',
    note: 'Nota de liberación',
    notePlaceholder: 'Obligatorio: por qué se libera o qué se hizo',
    confirm: 'Liberar',
    released: 'Liberada; las puertas vuelven a sus propios modos',
  },
  door: {
    pending: 'Esperando al controlador',
    held: 'Confirmada {{mode}}',
    restoring: 'Volviendo',
    restored: 'De nuevo {{mode}}',
    unreached: 'El controlador no respondió: sin cambios',
  },
};
