// Cursor pagination (SPEC §7): every list answers `{<items>, nextCursor}`; the next page is the
// same request with `cursor` set and every other parameter identical; `nextCursor` null ends it.
import { InterlockError } from './errors';

/** Fetches the page that `cursor` points at, with the walk's original parameters. */
export type PageFetcher<Item> = (cursor: string) => Promise<CursorPage<Item>>;

/** One page of a list. Iterating it with `for await` walks this page and every later one. */
export class CursorPage<Item> implements AsyncIterable<Item> {
  constructor(
    /** The items of this page. */
    readonly data: Item[],
    /** The cursor of the next page, null on the last. */
    readonly nextCursor: string | null,
    private readonly fetchPage: PageFetcher<Item>,
  ) {}

  hasNextPage(): boolean {
    return typeof this.nextCursor === 'string' && this.nextCursor !== '';
  }

  /** The next page; throws when there is none (check `hasNextPage()` first). */
  async getNextPage(): Promise<CursorPage<Item>> {
    if (!this.hasNextPage()) {
      throw new InterlockError('No next page: check hasNextPage() before calling getNextPage().');
    }
    return this.fetchPage(this.nextCursor as string);
  }

  /** This page and each later one, fetched as the loop asks for them. */
  async *iterPages(): AsyncGenerator<CursorPage<Item>, void, undefined> {
    yield this;
    let page = this.hasNextPage() ? await this.getNextPage() : null;
    while (page !== null) {
      yield page;
      page = page.hasNextPage() ? await page.getNextPage() : null;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.iterPages()) {
      yield* page.data;
    }
  }
}

/**
 * What a `list` call returns: await it for the first page, or `for await` over it for every item
 * of every page. The first request is made once, when first needed.
 */
export class PagePromise<Item> implements PromiseLike<CursorPage<Item>>, AsyncIterable<Item> {
  private first: Promise<CursorPage<Item>> | undefined;

  constructor(private readonly load: () => Promise<CursorPage<Item>>) {}

  /** The first page (the same promise however often it is called). */
  firstPage(): Promise<CursorPage<Item>> {
    this.first ??= this.load();
    return this.first;
  }

  then<A = CursorPage<Item>, B = never>(
    onfulfilled?: ((page: CursorPage<Item>) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.firstPage().then(onfulfilled, onrejected);
  }

  catch<B = never>(
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<CursorPage<Item> | B> {
    return this.firstPage().catch(onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<CursorPage<Item>> {
    return this.firstPage().finally(onfinally);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    const page = await this.firstPage();
    yield* page;
  }

  get [Symbol.toStringTag](): string {
    return 'PagePromise';
  }
}
