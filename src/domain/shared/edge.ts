/**
 * A Relay edge whose cursor is encoded when it is read: a page's query most often asks only for
 * `pageInfo`'s cursors, and encoding every edge's was work for nothing. A class, not an
 * object literal with a getter, which V8 builds on its slow path.
 */
export class CursorEdge<T> {
  constructor(
    readonly node: T,
    private readonly encode: (node: T) => string,
  ) {}

  get cursor(): string {
    return this.encode(this.node);
  }
}
