export * from './languages.ts';
export * from './translate.ts';
export { catalogues, type Catalogue, type CatalogueShape } from './catalogues.ts';
