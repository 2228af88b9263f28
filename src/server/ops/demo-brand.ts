import { GRID_SIZE } from '../../api/schemas/visibility.js';
import type { StoreData } from '../store/schema.js';
import { stableId } from './demo-id.js';

/**
 * The demo store's visibility scans, brand subjects and CRM agents (src/server/ops/seed.ts
 * demoStore): the largest records, built apart. Dates and draws come from demoStore, so the
 * data is the same on every run.
 */

/** Two 9x9 scans of three keywords around the first website, 30 days apart. */
export function demoVisibilityScans(W1: string, day: (n: number) => string, rand: () => number): StoreData['visibility_scans'] {
  const grid = (center: { lat: number; lng: number }, kw: number) => {
    const points: { lat: number; lng: number; rank: number | null }[] = [];
    const stepLat = 25 / 69 / 4; // 25 miles radius over 4 steps each side
    const stepLng = stepLat / Math.cos((center.lat * Math.PI) / 180);
    for (let r = 0; r < GRID_SIZE; r++) {
      for (let c = 0; c < GRID_SIZE; c++) {
        const dist = Math.max(Math.abs(r - 4), Math.abs(c - 4));
        const base = 1 + dist * (2 + kw) + Math.floor(rand() * 3);
        points.push({
          lat: Math.round((center.lat + (r - 4) * stepLat) * 1e6) / 1e6,
          lng: Math.round((center.lng + (c - 4) * stepLng) * 1e6) / 1e6,
          rank: base > 20 ? null : base,
        });
      }
    }
    return points;
  };
  const loc = { lat: 47.6062, lng: -122.3321 };
  const keywords = ['dentist near me', 'teeth whitening', 'emergency dentist'];
  return [
    { websiteId: W1, scanDate: day(-37), keywords: keywords.map((k, i) => ({ keyword: k, gridPoints: grid(loc, i + 3) })) },
    { websiteId: W1, scanDate: day(-7), keywords: keywords.map((k, i) => ({ keyword: k, gridPoints: grid(loc, i + 2) })) },
  ];
}

/** A mascot and a location of the first website (inline image data among them), a product of the second. */
export function demoBrandSubjects(W1: string, W2: string): StoreData['brand_subjects'] {
  const b64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
  return [
    {
      id: stableId('brand:molar'),
      websiteId: W1,
      subjectName: 'Molly the Molar',
      subjectDescription: 'Friendly cartoon tooth mascot used in kids campaigns.',
      subjectType: 'mascot',
      identityTraits: 'cheerful, reassuring, a little goofy',
      appearanceDetails: 'white rounded tooth, big blue eyes, tiny toothbrush',
      distinguishingFeatures: 'sparkle on the top left corner',
      styleCharacteristics: 'flat vector, thick outlines',
      colorProfile: ['#FFFFFF', '#1E88E5', '#FFC107'],
      defaultScale: 'medium',
      preferredPlacement: 'bottom right',
      compositingNotes: 'keep a soft drop shadow',
      status: 'active',
      referenceImages: [
        { imageId: 'img-molly-1', publicUrl: 'https://cdn.example/brand/molly-front.png', label: 'front', isPrimary: true },
        { imageId: 'img-molly-2', publicUrl: null, base64: b64, label: 'side (upload pending)', isPrimary: false },
        { imageId: 'img-molly-3', publicUrl: `data:image/png;base64,${b64}`, label: 'inline sketch', isPrimary: false },
      ],
      brandMark: { imageId: 'mark-harbor', publicUrl: 'https://cdn.example/brand/harbor-mark.svg' },
    },
    {
      id: stableId('brand:clinic'),
      websiteId: W1,
      subjectName: 'Harbor clinic front desk',
      subjectDescription: 'The reception area, used as a location backdrop.',
      subjectType: 'location',
      identityTraits: 'calm, bright, modern',
      appearanceDetails: 'light oak desk, teal accent wall',
      distinguishingFeatures: 'porthole window',
      styleCharacteristics: 'photographic, natural light',
      colorProfile: ['#E0F2F1', '#00897B'],
      defaultScale: 'large',
      preferredPlacement: 'background',
      compositingNotes: 'avoid faces of staff',
      status: 'active',
      referenceImages: [{ imageId: 'img-desk-1', publicUrl: 'https://cdn.example/brand/desk.jpg', label: 'wide', isPrimary: true }],
      brandMark: { imageId: 'mark-inline', publicUrl: `data:image/svg+xml;base64,${b64}`, base64: b64 },
    },
    {
      id: stableId('brand:loaf'),
      websiteId: W2,
      subjectName: 'Signature sourdough loaf',
      subjectDescription: 'Hero product shot.',
      subjectType: 'product',
      identityTraits: 'rustic, artisanal',
      appearanceDetails: 'dark crust, ear on top, flour dusting',
      distinguishingFeatures: 'maple leaf scoring',
      styleCharacteristics: 'warm, close-up',
      colorProfile: ['#8D6E63', '#FFF8E1'],
      defaultScale: 'small',
      preferredPlacement: 'center',
      compositingNotes: '',
      status: 'draft',
      referenceImages: [{ imageId: 'img-loaf-1', base64: b64, label: 'studio', isPrimary: true }],
      brandMark: null,
    },
  ];
}

/** CRM agents with long prompts (emoji included) and several prompt versions. */
export function demoCrmAgents(W1: string, W2: string, at: (n: number, hour?: number) => string): StoreData['crm_agents'] {
  const longPrompt = (name: string) =>
    `You are ${name}, the front-desk assistant of Harbor Dental 🦷. Greet every caller warmly, confirm their name and date of birth, ` +
    'and help them book, move or cancel appointments. Never give medical advice; offer a call back from a hygienist instead. ' +
    'Keep answers under three sentences 😊 and always end by asking whether there is anything else you can help with. ' +
    'Escalate billing disputes to the office manager and log every call outcome in the CRM with the correct disposition code.';
  return [
    {
      id: stableId('agent:reception'),
      websiteId: W1,
      crmAgentId: 'ghl-agent-48213',
      name: 'Reception bot',
      status: 'active',
      createdAt: at(-90),
      promptVersions: [
        { versionNumber: 1, promptText: 'Old prompt.', isActive: false },
        { versionNumber: 2, promptText: longPrompt('Harbor Reception'), isActive: true },
      ],
    },
    {
      id: stableId('agent:recall'),
      websiteId: W1,
      crmAgentId: 'ghl-agent-48214',
      name: 'Recall caller',
      status: 'paused',
      createdAt: at(-30),
      promptVersions: [{ versionNumber: 1, promptText: 'Draft prompt, not yet active.', isActive: false }],
    },
    {
      id: stableId('agent:orders'),
      websiteId: W2,
      crmAgentId: 'ghl-agent-50001',
      name: 'Order taker',
      status: 'active',
      createdAt: at(-12),
      promptVersions: [{ versionNumber: 3, promptText: '🥐'.repeat(250), isActive: true }],
    },
  ];
}
