export const navbar = {
  toggleSidebar: 'Mostrar u ocultar el menú',
  dashboard: 'Panel',
  profile: 'Perfil',
  logOut: 'Cerrar sesión',
  size: 'Tamaño global',
  language: 'Idioma',
  fullscreen: 'Pantalla completa',
  exitFullscreen: 'Salir de pantalla completa',
  errorLog: 'Registro de errores',
  search: 'Buscar menús',
  searchPlaceholder: 'Título, pinyin o ruta del menú',
  noMatch: 'Ningún menú coincide',
};

export const size = {
  default: 'Predeterminado',
  medium: 'Mediano',
  small: 'Pequeño',
  mini: 'Mini',
};

export const tagsView = {
  refresh: 'Actualizar',
  close: 'Cerrar',
  closeOthers: 'Cerrar otras',
  closeAll: 'Cerrar todas',
};

export const settings = {
  open: 'Configuración de la página',
  title: 'Configuración de la página',
  theme: 'Color del tema',
  tagsView: 'Mostrar pestañas',
  fixedHeader: 'Cabecera fija',
  sidebarLogo: 'Logo en el menú',
  pinyinSearch: 'Pinyin en la búsqueda',
};

export const errorLog = {
  title: 'Registro de errores',
  clearAll: 'Borrar todo',
  empty: 'Sin errores',
  message: 'Mensaje',
  component: 'Componente',
  info: 'Información',
  url: 'URL',
  stack: 'Pila',
  time: 'Hora',
  fallback: 'Esta página falló: {{message}}',
};
