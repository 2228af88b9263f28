import type { BrandSubject } from '../../../api/schemas/brand.js';
import type { BrandSubjectRecord } from '../../store/schema.js';

const DATA_URL = /data:[^,\s"']*,[^\s"']*/gi;

/** A usable public URL: a non-empty string that is not inline (`data:`) image data. */
export function publicUrlOf(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  const u = url.trim();
  if (u === '' || /^data:/i.test(u)) return undefined;
  return u;
}

/** Removes inline image data from free text. */
const scrub = (s: unknown): string => (typeof s === 'string' ? s.replace(DATA_URL, '').trim() : '');

/**
 * GET /brand/brand-subjects (docs/api-decisions.md §6): no base64 or `data:` image data anywhere; a
 * reference image without a public URL is left out, a brand mark without one is null.
 */
export function toBrandSubject(r: BrandSubjectRecord): BrandSubject {
  const referenceImages = r.referenceImages.flatMap((img) => {
    const publicUrl = publicUrlOf(img.publicUrl);
    return publicUrl ? [{ imageId: img.imageId, publicUrl, label: scrub(img.label), isPrimary: img.isPrimary }] : [];
  });
  const markUrl = r.brandMark ? publicUrlOf(r.brandMark.publicUrl) : undefined;
  return {
    id: r.id,
    subjectName: scrub(r.subjectName),
    subjectDescription: scrub(r.subjectDescription),
    subjectType: r.subjectType,
    identityTraits: scrub(r.identityTraits),
    appearanceDetails: scrub(r.appearanceDetails),
    distinguishingFeatures: scrub(r.distinguishingFeatures),
    styleCharacteristics: scrub(r.styleCharacteristics),
    colorProfile: r.colorProfile.filter((c) => !/^data:/i.test(c)),
    defaultScale: r.defaultScale,
    preferredPlacement: scrub(r.preferredPlacement),
    compositingNotes: scrub(r.compositingNotes),
    status: r.status,
    referenceImages,
    brandMark: r.brandMark && markUrl ? { imageId: r.brandMark.imageId, publicUrl: markUrl } : null,
  };
}

export function listBrandSubjects(records: readonly BrandSubjectRecord[], websiteIds: ReadonlySet<string>): BrandSubject[] {
  return records.filter((r) => websiteIds.has(r.websiteId)).map(toBrandSubject);
}
