import type { CatalogueShape } from '@gatehouse/shared';
import type { accessCheckUi as zh } from '../zh/accessCheckUi.ts';

export const accessCheckUi: CatalogueShape<typeof zh> = {
  form: {
    card: 'Número de tarjeta',
    cardPlaceholder: 'Número de tarjeta (1 a 10 dígitos)',
    door: 'Puerta',
    doorPlaceholder: 'Elija una puerta de un controlador',
    at: 'Hora',
    atPlaceholder: 'Ahora',
    check: 'Comprobar',
    again: 'Comprobar de nuevo',
    empty:
      'Introduzca un número de tarjeta y elija una puerta para ver por qué la tarjeta pasa o es rechazada',
    zone: 'Hora del área ({{zone}})',
  },
  side: {
    server: 'Lado de Gatehouse',
    controller: 'Lado del controlador',
    readAt: 'Leído en directo a las {{time}}',
    notRead: 'No leído',
    failed: 'La comprobación falló',
  },
  disagree: {
    title: 'Gatehouse y el controlador no coinciden',
    syncNow: 'Sincronizar ahora',
    syncStarted: 'Se está sincronizando el controlador; compruebe de nuevo cuando termine',
    adminOnly: 'Un administrador de control de acceso puede sincronizar este controlador ahora',
  },
  who: {
    keyword: 'Nombre o número de tarjeta',
    title: 'Quién puede pasar por esta puerta a las {{time}}',
    titleNow: 'Quién puede pasar por esta puerta ahora',
    held: 'Esta puerta está siempre cerrada en ese momento: ninguna tarjeta deja pasar a nadie',
    visitor: 'Visitante',
    anyTime: 'A cualquier hora',
  },
  action: {
    check: 'Comprobación de acceso',
  },
};
