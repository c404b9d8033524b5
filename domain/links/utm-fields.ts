/** The shapes a link's UTM parameters and query policy are stored in (links.utm, links.query_policy). */

/** UTM parameters a link adds to its destination, each as `utm_<name>`. */
export interface Utm {
  source?: string;
  medium?: string;
  campaign?: string;
  term?: string;
  content?: string;
}

export const UTM_FIELDS = ['source', 'medium', 'campaign', 'term', 'content'] as const satisfies readonly (keyof Utm)[];

/** What happens to the query string a visitor arrives with. */
export const QUERY_POLICIES = ['drop', 'merge'] as const;
export type QueryPolicy = (typeof QUERY_POLICIES)[number];
