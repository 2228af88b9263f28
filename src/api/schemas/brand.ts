import { z } from 'zod';
import { websiteIdField } from './common.js';

export const ScopeFilterQuery = z.object({ website_id: websiteIdField() });

export const ReferenceImage = z.looseObject({
  imageId: z.string(),
  publicUrl: z.string(),
  label: z.string(),
  isPrimary: z.boolean(),
});
export const BrandMark = z.looseObject({ imageId: z.string(), publicUrl: z.string() });

export const BrandSubject = z.looseObject({
  id: z.string(),
  subjectName: z.string(),
  subjectDescription: z.string(),
  subjectType: z.string(),
  identityTraits: z.string(),
  appearanceDetails: z.string(),
  distinguishingFeatures: z.string(),
  styleCharacteristics: z.string(),
  colorProfile: z.array(z.string()),
  defaultScale: z.string(),
  preferredPlacement: z.string(),
  compositingNotes: z.string(),
  status: z.string(),
  referenceImages: z.array(ReferenceImage),
  brandMark: BrandMark.nullable(),
});
export type BrandSubject = z.infer<typeof BrandSubject>;
export const BrandSubjectList = z.array(BrandSubject);
