export * from './languages.ts';
export * from './translate.ts';
export * from './audit-keys.ts';
export { catalogues, type Catalogue, type CatalogueShape } from './catalogues.ts';
