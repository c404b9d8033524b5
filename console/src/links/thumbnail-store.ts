/**
 * The links list's thumbnails as they are drawn: each row's picture is set here and only that
 * row's <img> is told, so drawing fifty codes re-renders fifty images, not the list fifty times.
 */
export class ThumbnailStore {
  private readonly pictures = new Map<string, string | null>();
  private readonly watchers = new Map<string, () => void>();

  get(slug: string): string | null | undefined {
    return this.pictures.get(slug);
  }

  set(slug: string, picture: string | null): void {
    this.pictures.set(slug, picture);
    this.watchers.get(slug)?.();
  }

  /** Calls `changed` when the row's picture is set; returns the release. One watcher per row. */
  watch(slug: string, changed: () => void): () => void {
    this.watchers.set(slug, changed);
    return () => {
      if (this.watchers.get(slug) === changed) this.watchers.delete(slug);
    };
  }
}
