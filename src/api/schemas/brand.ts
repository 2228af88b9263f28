import * as z from 'zod';

export const ReferenceImage = z
  .looseObject({
    imageId: z.string(),
    publicUrl: z.string().describe('Public URL of the image; never base64 or data: content'),
    label: z.string(),
    isPrimary: z.boolean(),
  })
  .meta({ id: 'ReferenceImage' });
export const BrandMark = z.looseObject({ imageId: z.string(), publicUrl: z.string() }).meta({ id: 'BrandMark' });

export const BrandSubject = z
  .looseObject({
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
  })
  .meta({
    id: 'BrandSubject',
    description: 'A character, mascot, product, object or location of the brand, with reference image URLs (base64 image data removed)',
  });
export type BrandSubject = z.infer<typeof BrandSubject>;
export const BrandSubjectList = z.array(BrandSubject);
