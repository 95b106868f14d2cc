import type { CatalogueShape } from '../catalogues.ts';
import type { accessCheck as zh } from '../zh/accessCheck.ts';

export const accessCheck: CatalogueShape<typeof zh> = {
  title: {
    check: 'Comprobación de acceso',
    who: 'Quién puede pasar',
  },
  step: {
    card: 'Tarjeta registrada',
    holder: 'Titular',
    authorisation: 'Autorización en la puerta',
    validity: 'Vigencia',
    timeProfile: 'Perfil horario',
    lockdown: 'Cierre y evacuación',
    schedule: 'Programación de la puerta',
    doorMode: 'Modo de la puerta',
    interlock: 'Enclavamiento',
    antiPassback: 'Antirretorno',
  },
  controllerStep: {
    reach: 'Lectura del controlador',
    card: 'Tarjeta en el controlador',
    dates: 'Fechas en el controlador',
    doorValue: 'Valor de acceso de la puerta',
    profile: 'Perfil horario en el controlador',
    doorMode: 'Modo de la puerta en el controlador',
    clock: 'Reloj del controlador',
    lastRefusal: 'Último rechazo',
  },
  verdict: {
    pass: 'Pasa',
    refuse: 'Rechazada',
    warn: 'Atención',
    unknown: 'Desconocido',
  },
  value: {
    none: 'sin acceso',
    any: 'a cualquier hora',
    profile: 'perfil horario {{slot}}',
  },
  summary: {
    server_pass: 'Según las reglas de Gatehouse, la tarjeta {{card}} pasa por {{door}} a las {{time}}',
    server_refuse:
      'Según las reglas de Gatehouse, la tarjeta {{card}} es rechazada en {{door}} a las {{time}}: {{why}}',
    server_warn:
      'Según las reglas de Gatehouse, la tarjeta {{card}} pasa por {{door}} a las {{time}}, con una salvedad: {{why}}',
    server_unknown:
      'Según las reglas de Gatehouse, no se puede saber si la tarjeta {{card}} pasa por {{door}} a las {{time}}: {{why}}',
    controller_pass: 'El controlador {{device}} le abre',
    controller_refuse: 'El controlador {{device}} la rechaza: {{why}}',
    controller_warn: 'El controlador {{device}} le abre, con una salvedad: {{why}}',
    controller_unknown: 'No se conoce el lado del controlador {{device}}: {{why}}',
  },
  finding: {
    cardRegistered: 'La tarjeta {{card}} está registrada en esta área',
    cardNotRegistered: 'La tarjeta {{card}} no está registrada en esta área: el controlador no la conoce',
    cardNotHeld: 'La tarjeta está registrada pero no se ha entregado a ningún titular',
    holderEnabled: 'Titular: {{holder}}, habilitado',
    holderDisabled: 'Titular: {{holder}}, que está deshabilitado',
    passValid: 'Pase de visitante de {{visitor}} (anfitrión {{host}}), vigente',
    passEnded: 'El pase de visitante de {{visitor}} (anfitrión {{host}}) ha terminado',
    noGrant: '{{holder}} no tiene autorización en esta puerta',
    granted: 'Autorizado en {{channel}} ({{status}})',
    grantedOtherReader:
      'Autorizado en {{channel}}, el otro lector de esta puerta ({{status}}): el controlador abre la puerta desde ambos lados',
    grantPending: 'Autorizado en {{channel}}, pero aún no está en el controlador ({{status}})',
    grantWithdrawn: 'La autorización en {{channel}} se está eliminando del controlador ({{status}})',
    grantRevoked: 'La autorización en {{channel}} fue revocada',
    valid: 'Vigente del {{from}} al {{to}}',
    validDatesOnly:
      'Fuera de su vigencia ({{from}} a {{to}}), pero el controlador solo guarda fechas ({{cfrom}} a {{cto}}): aún abre el {{date}}',
    notYetValid: 'No es válida antes del {{from}}',
    expired: 'Su vigencia terminó el {{to}}',
    anyTime: 'Sin perfil horario: a cualquier hora',
    inProfile: '{{time}} está dentro del perfil horario «{{profile}}»',
    inLinkedProfile: '{{time}} está dentro de «{{by}}», enlazado desde el perfil horario «{{profile}}»',
    outsideProfile: '{{time}} está fuera del perfil horario «{{profile}}»',
    holidayProfile:
      '{{time}} está fuera del perfil horario «{{profile}}»: el {{date}} es el festivo «{{holiday}}»',
    profileMissing: 'El perfil horario «{{profile}}» ya no existe: el controlador no da acceso a la tarjeta',
    noLockdown: 'Sin cierre ni evacuación en ese momento',
    lockedDown:
      'El área está cerrada desde {{since}}: todas las puertas siempre cerradas, ninguna tarjeta abre',
    evacuated: 'El área está en evacuación desde {{since}}: todas las puertas siempre abiertas',
    schedulePaused: 'Las programaciones de puertas se pausan mientras dura un cierre o una evacuación',
    noSchedule: 'Ninguna programación fija el modo de esta puerta en ese momento',
    scheduleMode: 'Una programación puso esta puerta en «{{mode}}» en ese momento',
    modeOverridden: 'Fijado a mano: «{{mode}}»; en ese momento decide el cierre o una programación',
    mode1: 'Modo de la puerta: {{mode}}: la puerta está desbloqueada de todos modos',
    mode2: 'Modo de la puerta: {{mode}}: ninguna tarjeta la abre',
    mode3: 'Modo de la puerta: {{mode}}',
    interlockOff: 'Enclavamiento desactivado',
    interlockOther: 'El enclavamiento ({{mode}}) no incluye esta puerta',
    interlockOn: 'Enclavamiento ({{mode}}): rechaza mientras la puerta {{doors}} está abierta',
    antiPassbackOff: 'Antirretorno desactivado',
    antiPassbackNoPassage:
      'Antirretorno ({{mode}}): no consta ningún paso de esta tarjeta por este controlador',
    antiPassbackOn:
      'Antirretorno ({{mode}}): pasó por última vez a las {{time}} por {{channel}}; se rechaza en el mismo lado hasta que pase por el otro',
    reach_read: 'El controlador {{device}} acaba de responder',
    reach_offline:
      'El controlador {{device}} está desconectado y no respondió: no se puede leer lo que guarda',
    reach_timeout: 'El controlador {{device}} no respondió: no se puede leer lo que guarda',
    reach_refused: 'El controlador {{device}} rechazó la lectura',
    reach_notDriven:
      'Ninguna instancia gestiona el controlador {{device}} en este momento (traspaso entre instancias): inténtelo de nuevo en unos segundos',
    reach_noAddress: 'El controlador {{device}} no tiene dirección IP: Gatehouse no puede llegar a él',
    reach_gatewayOff: 'La pasarela de controladores no funciona en este servidor: no se pueden leer',
    reach_notWg:
      '{{device}} es un torniquete de terceros: comprueba las tarjetas por sí mismo, Gatehouse no lo gestiona',
    reach_disabled: 'El controlador {{device}} está deshabilitado: Gatehouse no lo gestiona',
    reach_noDoor: 'El canal no indica ninguna puerta: no hay nada que leer en el controlador',
    ctlHoldsCard: 'Guarda la tarjeta {{card}}',
    ctlLacksCard: 'No guarda la tarjeta {{card}}: la rechaza (sin permiso)',
    ctlDatesIn: 'Sus fechas para la tarjeta son del {{from}} al {{to}}: el {{date}} está dentro',
    ctlDatesOut: 'Sus fechas para la tarjeta son del {{from}} al {{to}}: el {{date}} queda fuera',
    ctlDoorNone: 'Puerta {{door}}: {{value}}',
    ctlDoorValue: 'Puerta {{door}}: {{value}}',
    ctlProfileMissing:
      'Le falta el perfil horario {{slot}}: un controlador deja pasar la tarjeta a cualquier hora',
    ctlInProfile: 'Su perfil horario {{slot}} cubre las {{time}}',
    ctlOutsideProfile: 'Su perfil horario {{slot}} no cubre las {{time}}',
    ctlMode: 'Modo de la puerta: {{mode}}',
    ctlClosed: 'Modo de la puerta: {{mode}}: ninguna tarjeta la abre',
    ctlModeNow: 'Su modo de puerta ahora es «{{mode}}» (no puede decir cuál era en otro momento)',
    ctlClockUnknown: 'No se pudo leer su reloj',
    ctlClockRight: 'Su reloj está en hora (desfase de {{drift}} s)',
    ctlClockOff: 'Su reloj tiene un desfase de {{drift}} s: juzga perfiles y fechas por su propio reloj',
    ctlNoRefusal: 'No consta ningún rechazo de esta tarjeta en esta puerta',
    ctlLastRefusal:
      'Último rechazo a las {{time}} en {{channel}}: {{reason}} (código del controlador {{code}})',
    ctlRefusedThenGranted:
      'Último rechazo a las {{time}} en {{channel}}: {{reason}} (código del controlador {{code}}); pasó después, a las {{granted}}',
  },
  disagree: {
    cardMissing:
      'Gatehouse autoriza la tarjeta {{card}} en la puerta {{door}}, pero el controlador {{device}} no la guarda: la rechaza. Sincronizar ahora la escribe',
    cardExtra:
      'El controlador {{device}} aún guarda la tarjeta {{card}} con acceso a la puerta {{door}}, que Gatehouse no autoriza: le abre. Sincronizar ahora la elimina',
    doorValue:
      'El controlador {{device}} guarda la puerta {{door}} de la tarjeta {{card}} como «{{held}}», Gatehouse como «{{ours}}». Sincronizar ahora escribe lo de Gatehouse',
    dates:
      'El controlador {{device}} guarda la tarjeta {{card}} vigente del {{heldFrom}} al {{heldTo}}, Gatehouse del {{from}} al {{to}}. Sincronizar ahora escribe lo de Gatehouse',
    profileMissing:
      'Al controlador {{device}} le falta el perfil horario {{slot}} («{{profile}}»): deja pasar la tarjeta a cualquier hora. Sincronizar ahora lo escribe',
    profile:
      'El perfil horario {{slot}} del controlador {{device}} difiere de «{{profile}}» de Gatehouse (fechas, días u horas). Sincronizar ahora escribe lo de Gatehouse',
    clock:
      'El reloj del controlador {{device}} tiene un desfase de {{drift}} s, y juzga horas y fechas por él. «Poner en hora» en la gestión de dispositivos lo corrige',
    doorMode:
      'El controlador {{device}} tiene la puerta {{door}} en «{{held}}», Gatehouse pide «{{ours}}». Sincronizar ahora lo restablece',
  },
};
