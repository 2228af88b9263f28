import * as z from 'zod';
import { BrandSubject } from '../../../api/schemas/brand.js';

/**
 * Records of brand subjects (docs/store-format.md): their images keep base64 data and may have
 * no public URL, which the API then leaves out.
 */
const nstr = () => z.string().nullable();
const StoredImage = z.looseObject({
  imageId: z.string(),
  publicUrl: nstr().optional(),
  base64: nstr().optional(),
});
export const BrandSubjectRecord = z.looseObject({
  ...BrandSubject.shape,
  websiteId: z.string(),
  referenceImages: z.array(StoredImage.extend({ label: z.string(), isPrimary: z.boolean() })),
  brandMark: StoredImage.nullable().optional(),
});

export const brandRecords = { brand_subjects: BrandSubjectRecord } as const;

export type BrandSubjectRecord = z.infer<typeof BrandSubjectRecord>;
