import * as z from 'zod';
import { ROLES } from '../../../api/vocabulary.js';

/**
 * Records of the store's users, agencies, websites and keys (docs/store-format.md): who may
 * call and what they reach. Listed fields are validated for presence and type only (schema.ts).
 */
const str = () => z.string();
const nstr = () => z.string().nullable();

export const UserRecord = z.looseObject({ id: str(), email: str(), name: str() });
export const AgencyRecord = z.looseObject({ id: str(), name: str() });
export const WebsiteRecord = z.looseObject({
  id: str(),
  name: str(),
  domain: str(),
  agency_id: nstr(),
  owner_id: str(),
  location: z.looseObject({ lat: z.number(), lng: z.number() }).nullable(),
});
export const ApiKeyRecord = z
  .looseObject({
    id: str(),
    name: str(),
    key_sha256: z.string().regex(/^[0-9a-f]{64}$/, 'expected lowercase hex sha256'),
    user_id: str(),
    role: z.enum(ROLES),
    website_id: nstr().optional(),
    agency_id: nstr().optional(),
    created_at: str(),
    revoked_at: nstr(),
  })
  .superRefine((k, ctx) => {
    if (!k.website_id === !k.agency_id) {
      ctx.addIssue({ code: 'custom', path: ['website_id'], message: 'exactly one of website_id and agency_id must be set' });
    }
  });

export const accessRecords = { users: UserRecord, agencies: AgencyRecord, websites: WebsiteRecord, api_keys: ApiKeyRecord } as const;

export type UserRecord = z.infer<typeof UserRecord>;
export type AgencyRecord = z.infer<typeof AgencyRecord>;
export type WebsiteRecord = z.infer<typeof WebsiteRecord>;
export type ApiKeyRecord = z.infer<typeof ApiKeyRecord>;
