/** What each tag of the endpoint table groups, for the OpenAPI document (docs/api-decisions.md §10). */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Finance: "Revenue, costs and invoice alerts of the business entities owned by the key's user.",
  Content: 'Content assets: ad creatives and nurture sequences of a website.',
  'Content Listeners': 'Subscriptions to external sources (reddit, youtube, news, search, rss, social networks) that surface content opportunities.',
  Social: 'Social posts and their publishing schedule.',
  Intelligence: 'Confirmed learnings: patterns validated by two or more independent test wins.',
  GBP: 'Visibility of the business profile in local search, as a rank grid per tracked keyword.',
  Brand: 'Brand subjects (characters, mascots, products, objects, locations) with reference images.',
  Integrations: 'Connected services, such as the AI agents of the CRM.',
};
