import Ajv2020Import from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';

// CommonJS modules: under NodeNext typing the default import is module.exports, whose
// `.default` is the class/plugin; at run time either may be what the loader hands back.
export const Ajv2020 = ((Ajv2020Import as { default?: unknown }).default ?? Ajv2020Import) as typeof Ajv2020Import.default;
export const addFormats = ((addFormatsImport as { default?: unknown }).default ?? addFormatsImport) as typeof addFormatsImport.default;
export type Ajv = InstanceType<typeof Ajv2020>;
