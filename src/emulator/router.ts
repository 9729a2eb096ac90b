/**
 * Maps a request's method and path to an operation. Every path template of every served operation (the proto
 * path, the SDK URL and each gateway alias, docs/wire.md §1, as the family tables list them) goes
 * into one segment tree per method; `{name}` segments match any one segment and bind it to the (dotted) request
 * field `name`, and `{name}:verb` (the platform's custom-method form, `/v2/confirmation/{bookingId}:confirmOrDecline`)
 * matches a segment ending in `:verb`. A literal segment wins over a parameter. Templates may name the parameter
 * at the same position differently (`/v2/bookings/{bookingId}/confirm` beside
 * `/v2/bookings/{id}/update_extended_fields`): the names are those of the template that matched.
 */

export interface Match<T> {
  target: T;
  params: Record<string, string>;
}

interface Param<T> {
  /** Literal text after the parameter in its segment (`:confirmOrDecline`), '' for a whole segment. */
  suffix: string;
  node: Node<T>;
}

interface Node<T> {
  literals: Map<string, Node<T>>;
  /** Parameters, longest suffix first (a suffixed parameter is more specific than a whole-segment one). */
  params: Param<T>[];
  /** The operation whose template ends here, with its parameter names in path order. */
  end?: { target: T; names: string[] };
}

const node = <T>(): Node<T> => ({ literals: new Map(), params: [] });

export class Router<T> {
  private readonly roots = new Map<string, Node<T>>();

  /**
   * Adds `template` (e.g. `/_api/bookings/v2/services/{serviceId}`) for `method`.
   * @throws Error when the same method and template were added for another target
   */
  add(method: string, template: string, target: T): void {
    let root = this.roots.get(method);
    if (!root) this.roots.set(method, (root = node()));
    let current = root;
    const names: string[] = [];
    for (const segment of template.split('/').filter(Boolean)) {
      const param = /^\{([^}]+)\}(.*)$/.exec(segment);
      if (param) {
        const [, name, suffix] = param as unknown as [string, string, string];
        names.push(name);
        let entry = current.params.find((p) => p.suffix === suffix);
        if (!entry) {
          current.params.push((entry = { suffix, node: node() }));
          current.params.sort((a, b) => b.suffix.length - a.suffix.length);
        }
        current = entry.node;
      } else {
        let next = current.literals.get(segment);
        if (!next) current.literals.set(segment, (next = node()));
        current = next;
      }
    }
    if (current.end !== undefined && current.end.target !== target) throw new Error(`route ${method} ${template} is declared twice`);
    current.end = { target, names };
  }

  /** The target and path parameters (URI-decoded) for the request, or undefined (the caller answers 404). */
  match(method: string, path: string): Match<T> | undefined {
    const root = this.roots.get(method);
    if (!root) return undefined;
    const parts = path.split('/').filter(Boolean);
    const values: string[] = [];
    const walk = (n: Node<T>, i: number): Node<T>['end'] => {
      if (i === parts.length) return n.end;
      const literal = n.literals.get(parts[i]!);
      if (literal) {
        const hit = walk(literal, i + 1);
        if (hit !== undefined) return hit;
      }
      for (const p of n.params) {
        const part = parts[i]!;
        if (p.suffix && (!part.endsWith(p.suffix) || part.length === p.suffix.length)) continue;
        let value: string;
        try {
          value = decodeURIComponent(part.slice(0, part.length - p.suffix.length));
        } catch {
          return undefined;
        }
        values.push(value);
        const hit = walk(p.node, i + 1);
        if (hit !== undefined) return hit;
        values.pop();
      }
      return undefined;
    };
    const end = walk(root, 0);
    if (end === undefined) return undefined;
    const params: Record<string, string> = {};
    end.names.forEach((name, i) => {
      params[name] = values[i]!;
    });
    return { target: end.target, params };
  }
}
