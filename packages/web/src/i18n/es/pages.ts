export const login = {
  title: 'Inicio de sesión',
  username: 'Usuario',
  password: 'Contraseña',
  logIn: 'Entrar',
  showPassword: 'Mostrar contraseña',
  hidePassword: 'Ocultar contraseña',
  thirdparty: 'Acceso con terceros',
  thirdpartyTips: 'El acceso con terceros aún no está implementado; entre con su usuario y contraseña.',
  usernameRequired: 'Introduzca el usuario',
  passwordRequired: 'Introduzca la contraseña',
  capsLock: 'Bloq Mayús activado',
};

export const authRedirect = {
  text: 'Volviendo a la página de inicio de sesión…',
};

export const dashboard = {
  welcome: 'Bienvenido de nuevo, {{name}}',
  intro:
    'Elija una tarea en el menú de la izquierda; la barra superior cambia el área, el idioma y el tamaño.',
  currentArea: 'Área actual',
  noArea: 'Sin área asignada',
  areaName: 'Nombre del área',
  address: 'Dirección',
  contact: 'Teléfono de contacto',
  timezone: 'Zona horaria',
  roles: 'Permisos',
  quickLinks: 'Accesos rápidos',
  noQuickLinks: 'No hay menús de negocio disponibles',
  latestEvents: 'Últimos eventos',
  noEvents: 'Ningún pase ni evento de puerta en las últimas 24 horas',
  allEvents: 'Todos los registros',
};

export const profile = {
  title: 'Perfil',
  account: 'Cuenta',
  userName: 'Usuario',
  name: 'Nombre',
  avatar: 'Ruta del avatar',
  avatarHint: 'Ruta de la imagen, relativa al servidor de imágenes: {{base}}',
  save: 'Guardar perfil',
  saved: 'Perfil guardado',
  password: 'Cambiar contraseña',
  oldPassword: 'Contraseña actual',
  newPassword: 'Nueva contraseña',
  confirmPassword: 'Confirmar nueva contraseña',
  passwordMismatch: 'Las contraseñas no coinciden',
  changePassword: 'Cambiar contraseña',
  passwordChanged: 'Contraseña cambiada',
};

export const errorPage = {
  title401: 'Sin permiso',
  text401: 'No tiene permiso para abrir esta página. Contacte con el administrador o vuelva al inicio.',
  title404: 'Página no encontrada',
  text404: 'La página que busca no existe o se ha eliminado. Compruebe la dirección.',
  home: 'Volver al inicio',
  back: 'Volver atrás',
};

export const errorLogPage = {
  intro:
    'Los errores de ejecución se recogen en el registro de la barra superior; pulse su icono para verlos.',
  renderError: 'Provocar un error de renderizado',
  eventError: 'Provocar un error de evento',
  open: 'Abrir el registro de errores',
  count: '{{count}} errores recogidos',
};

export const i18nDemo = {
  title: 'Demostración de idiomas',
  intro: 'Al cambiar de idioma, los textos, las fechas y los componentes usan ese idioma.',
  language: 'Idioma actual',
  date: 'Selector de fecha',
  pagination: 'Paginación',
  empty: 'Estado vacío',
  confirm: 'Confirmación',
  confirmText: '¿Seguro que desea hacerlo?',
  interpolation: 'Interpolación: ¡hola, {{name}}!',
  today: 'Hoy es {{date}}',
};

export const icons = {
  title: 'Iconos',
  intro: 'Pulse un icono para copiar el código de su componente.',
  filter: 'Filtrar por nombre',
};
