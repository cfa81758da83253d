export * from './constants';
export * from './environment';
export * from './headers';
export * from './instant';
export * from './signing';
export * from './types';
export * from './rules';
