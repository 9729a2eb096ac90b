/**
 * Maps a request's method and path to a route: first the path's alias prefix is replaced by the proto prefix
 * (platform-wire.md section 1: the emulator accepts every gateway alias), then the canonical path is matched
 * segment by segment against the route table. Literal segments win over `:param` segments.
 */
import type { Route } from './routes/types.js';

export interface Match {
  route: Route;
  params: Record<string, string>;
}

interface Compiled {
  route: Route;
  segments: string[];
  literals: number;
}

export class Router {
  private readonly byMethod = new Map<string, Compiled[]>();

  constructor(routes: Route[], private readonly aliases: Array<[string, string]>) {
    for (const route of routes) {
      const segments = route.path.split('/').filter(Boolean);
      const list = this.byMethod.get(route.method) ?? [];
      list.push({ route, segments, literals: segments.filter((s) => !s.startsWith(':')).length });
      list.sort((a, b) => b.literals - a.literals);
      this.byMethod.set(route.method, list);
    }
  }

  /** The canonical (proto) form of `path`. */
  canonical(path: string): string {
    for (const [alias, proto] of this.aliases) {
      if (path === alias || path.startsWith(alias + '/')) return proto + path.slice(alias.length);
    }
    return path;
  }

  /** The matching route and its parameters, or undefined (the caller answers 404). */
  match(method: string, rawPath: string): Match | undefined {
    const candidates = this.byMethod.get(method);
    if (!candidates) return undefined;
    const parts = this.canonical(rawPath).split('/').filter(Boolean);
    for (const c of candidates) {
      if (c.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length; i++) {
        const seg = c.segments[i];
        if (seg.startsWith(':')) {
          try {
            params[seg.slice(1)] = decodeURIComponent(parts[i]);
          } catch {
            ok = false;
            break;
          }
        } else if (seg !== parts[i]) {
          ok = false;
          break;
        }
      }
      if (ok) return { route: c.route, params };
    }
    return undefined;
  }
}
