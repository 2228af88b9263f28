import { ContentListener } from '../../../api/schemas/listeners.js';

/** Records of content listeners: the API's own resource (docs/store-format.md). */
export const listenersRecords = { content_listeners: ContentListener } as const;
