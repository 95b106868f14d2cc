export const app = {
  siteTitle: 'Sistema de gestión',
  sidebarTitle: 'Gestión',
  loading: 'Cargando…',
};

export const ui = {
  ok: 'Aceptar',
  cancel: 'Cancelar',
  save: 'Guardar',
  close: 'Cerrar',
  back: 'Volver',
  retry: 'Reintentar',
  copy: 'Copiar',
  copied: 'Copiado: {{text}}',
  search: 'Buscar',
  none: 'Ninguno',
  yes: 'Sí',
  no: 'No',
};

export const request = {
  logoutTitle: 'Aviso de cierre de sesión',
  logoutMessage: 'La sesión ha caducado, ¿volver a iniciar sesión?',
  relogin: 'Iniciar sesión de nuevo',
  cancel: 'Cancelar',
  genericError: 'Algo salió mal',
  requestError: 'Error de solicitud',
};

export const session = {
  verificationFailed: 'La verificación falló, inicie sesión de nuevo.',
  rolesRequired: 'info: ¡los roles deben ser una lista no vacía!',
};

export const area = {
  switch: 'Cambio de área',
  placeholder: 'Seleccione un área',
  noArea: 'El usuario actual no tiene ningún área operable, contacte con el administrador',
  queryFailed: 'No se pudo consultar la información del área',
  switched: 'Área actual: {{name}}',
};

export const message = {
  switchLanguageSuccess: 'Idioma cambiado',
  switchSizeSuccess: 'Tamaño cambiado',
  fullscreenUnsupported: 'Su navegador no admite pantalla completa',
};
