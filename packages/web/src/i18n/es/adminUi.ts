import type { CatalogueShape } from '@gatehouse/shared';
import type { adminUi as zh } from '../zh/adminUi.ts';

export const adminUi: CatalogueShape<typeof zh> = {
  keyword: 'Palabra clave',
  userKeyword: 'Usuario, nombre o teléfono',
  staffKeyword: 'Nombre, teléfono o correo',
  exportKeyword: 'Título, datos u operador',
  passwordRule: 'De 8 a 64 caracteres',
  areasHint: 'El área actual siempre se incluye; solo puede asignar áreas que usted opera',
  resetPassword: 'Restablecer contraseña',
  passwordReset: 'Contraseña restablecida; el usuario debe volver a iniciar sesión',
  builtIn: 'Integrado',
  resourceCount: 'Recursos',
  roleCodeRule: 'Empieza por una letra; letras, dígitos y / _ -; no se puede cambiar después',
  assignResources: 'Asignar recursos',
  areaUsers: 'Usuarios autorizados',
  customHint: 'Un objeto JSON, p. ej. dirección, contacto y zona horaria (timezone)',
  settingsSaved: 'Configuración guardada y aplicada',
  siteTitleHint: 'Déjelo vacío para usar el título predeterminado',
  between: 'De {{min}} a {{max}}',
  addChild: 'Añadir hijo',
  ownMembers: 'Miembros propios',
  totalMembers: 'Incluidas subunidades',
  topLevel: 'Nivel superior',
  download: 'Descargar',
  changedFields: 'Campos cambiados',
};
