import type { errors as zh } from '../zh/errors.ts';

export const errors: Record<keyof typeof zh, string> = {
  badRequest: 'La solicitud no es válida',
  validation: 'Algunos campos no son válidos',
  unauthorized: 'Su sesión ha caducado, inicie sesión de nuevo',
  forbidden: 'No tiene permiso para esta acción',
  areaForbidden: 'No puede operar esta área',
  areaRequired: 'Seleccione primero un área',
  notFound: 'El registro no existe o ha sido eliminado',
  routeNotFound: 'No existe ese punto de acceso de la API',
  conflict: 'Los datos han cambiado, actualice e inténtelo de nuevo',
  internal: 'Error interno del servidor, inténtelo más tarde',
  loginFailed: 'Usuario o contraseña incorrectos',
  loginThrottled: 'Demasiados intentos fallidos, inténtelo de nuevo en {{minutes}} minutos',
  accountDisabled: 'Esta cuenta está deshabilitada, contacte con el administrador',
  oldPasswordWrong: 'La contraseña actual es incorrecta',
  invalidJson: 'No es un JSON válido',
  userNameTaken: 'Este nombre de usuario ya existe',
  areaNameTaken: 'Ya existe un área con este nombre',
  areaDisabled: 'Esta área está deshabilitada',
  builtInAdmin: 'El administrador integrado no se puede deshabilitar ni eliminar',
  ownAccountOnly: 'Solo puede modificar su propia cuenta',
};
