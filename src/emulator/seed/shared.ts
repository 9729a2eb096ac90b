/**
 * What the seed steps share: the units of time, the demo site's zone, the furniture's date and the image shape.
 */
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The demo site's zone: every business location's, so the timetable's wall-clock times are read in it. */
export const DEMO_ZONE = 'America/Los_Angeles';

export const iso = (ms: number) => new Date(ms).toISOString();
export const media = (id: string, slug: string, altText: string) => ({
  image: { id, url: `https://static.example.com/media/${slug}.jpg`, height: 800, width: 1200, altText },
});

/** When the site's furniture (locations, staff, categories, policies, forms) was made: 180 days before the seed hour. */
export const furnishedAt = (base: number): string => iso(base - 180 * DAY);
