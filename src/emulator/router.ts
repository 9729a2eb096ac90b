/**
 * Maps a request's method and path to an operation. Every path template of every served operation (the proto
 * path, the SDK URL and each gateway alias, platform-wire.md section 1, as the family tables list them) goes
 * into one segment tree per method; `{name}` segments match any one segment and bind it to the (dotted) request
 * field `name`. A literal segment wins over a parameter.
 */

export interface Match<T> {
  target: T;
  params: Record<string, string>;
}

interface Node<T> {
  literals: Map<string, Node<T>>;
  param?: { name: string; node: Node<T> };
  target?: T;
}

const node = <T>(): Node<T> => ({ literals: new Map() });

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
    for (const segment of template.split('/').filter(Boolean)) {
      const param = /^\{(.+)\}$/.exec(segment);
      if (param) {
        current.param ??= { name: param[1]!, node: node() };
        if (current.param.name !== param[1]) throw new Error(`route ${method} ${template}: parameter {${param[1]}} clashes with {${current.param.name}}`);
        current = current.param.node;
      } else {
        let next = current.literals.get(segment);
        if (!next) current.literals.set(segment, (next = node()));
        current = next;
      }
    }
    if (current.target !== undefined && current.target !== target) throw new Error(`route ${method} ${template} is declared twice`);
    current.target = target;
  }

  /** The target and path parameters (URI-decoded) for the request, or undefined (the caller answers 404). */
  match(method: string, path: string): Match<T> | undefined {
    const root = this.roots.get(method);
    if (!root) return undefined;
    const parts = path.split('/').filter(Boolean);
    const params: Record<string, string> = {};
    const walk = (n: Node<T>, i: number): T | undefined => {
      if (i === parts.length) return n.target;
      const literal = n.literals.get(parts[i]!);
      if (literal) {
        const hit = walk(literal, i + 1);
        if (hit !== undefined) return hit;
      }
      if (n.param) {
        let value: string;
        try {
          value = decodeURIComponent(parts[i]!);
        } catch {
          return undefined;
        }
        const hit = walk(n.param.node, i + 1);
        if (hit !== undefined) {
          params[n.param.name] = value;
          return hit;
        }
      }
      return undefined;
    };
    const target = walk(root, 0);
    return target === undefined ? undefined : { target, params };
  }
}
