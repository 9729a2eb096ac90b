/**
 * The official SDK's own description of its operations, read from its generated per-family modules
 * (`@wix/auto_sdk_<family>`, devDependencies): the reference the wire contract test compares the family tables
 * with (docs/contracts.md "The official SDK as the reference").
 *
 * Each module's `build/cjs/meta.js` exports, per public method, a builder whose result carries `httpMethod`,
 * the proto `path`, `pathParams` and `getUrl({host})` (the URL the SDK sends to that host, resolved through the
 * module's `domainToMappings`, with `:param` placeholders). Its `meta.d.ts` declares each builder as
 * `__PublicMethodMetaInfo<Method, PathParams, SdkRequest, WireRequest, SdkResponse, WireResponse>`: the fourth
 * type argument is the request as it travels (wire names: `id`, not the SDK's `_id`), whose properties are the
 * request fields this helper reads with the TypeScript compiler.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ts from 'typescript';

const require = createRequire(import.meta.url);

/** The host the SDK sends API-key and app calls to (`@wix/sdk` build/common.js `DEFAULT_API_URL`). */
export const SDK_HOST = 'www.wixapis.com';

/** The SDK modules of our families, by the suffix of their package name `@wix/auto_sdk_<suffix>`. */
export const SDK_MODULES = [
  'bookings_services',
  'bookings_bookings',
  'bookings_availability-calendar',
  'bookings_availability-time-slots',
  'bookings_extended-bookings',
  'bookings_staff-members',
  'bookings_attendance',
  'bookings_booking-policies',
  'bookings_categories-v-2',
  'members_members',
  'pricing-plans_plans',
  'pricing-plans_orders',
  'redirects_redirects',
  'identity_oauth',
  'identity_authentication',
  'identity_recovery',
  'identity_verification',
] as const;
export type SdkModule = (typeof SDK_MODULES)[number];

/** One SDK operation as its module describes it. */
export interface SdkOperation {
  module: SdkModule;
  /** The SDK's public method name (`queryServices`, `query`). */
  name: string;
  method: string;
  /** The proto path, `{field}` placeholders (`/v2/services/{service.id}`). */
  path: string;
  /** The URL sent to {@link SDK_HOST}, its placeholders as `{name}` (`/_api/bookings/v2/services/{serviceId}`). */
  url: string;
  /** The request's top-level wire fields (body keys, or query parameters of a GET/DELETE, path fields included). */
  requestFields: string[];
  /** The reply's top-level wire fields. */
  replyFields: string[];
}

interface MetaBuilder {
  httpMethod: string;
  path: string;
  pathParams: Record<string, string>;
  getUrl(context: { host: string }): string;
}

function metaFile(module: SdkModule): string {
  return require.resolve(`@wix/auto_sdk_${module}/meta`);
}

/** `:serviceId` -> `{serviceId}` for the builder's path parameters (longest first: `:id` is a prefix of `:idx`). */
function templated(url: string, params: Record<string, string>): string {
  let out = url;
  for (const name of Object.keys(params).sort((a, b) => b.length - a.length)) out = out.split(`:${name}`).join(`{${name}}`);
  return out;
}

/** Top-level property names of the 4th and 6th type arguments of every exported builder, per builder name. */
function typingsOf(files: string[]): Map<string, Map<string, { request: string[]; reply: string[] }>> {
  const program = ts.createProgram(files, { skipLibCheck: true, types: [], noEmit: true, target: ts.ScriptTarget.ES2022 });
  const checker = program.getTypeChecker();
  const out = new Map<string, Map<string, { request: string[]; reply: string[] }>>();
  for (const file of files) {
    const perOp = new Map<string, { request: string[]; reply: string[] }>();
    const sf = program.getSourceFile(file);
    if (!sf) throw new Error(`the SDK typings ${file} did not load`);
    for (const st of sf.statements) {
      if (!ts.isFunctionDeclaration(st) || !st.name || !st.type || !ts.isTypeReferenceNode(st.type)) continue;
      if (st.type.typeName.getText(sf) !== '__PublicMethodMetaInfo') continue;
      const args = st.type.typeArguments ?? [];
      const names = (node: ts.TypeNode | undefined) => (node ? checker.getPropertiesOfType(checker.getTypeFromTypeNode(node)).map((p) => p.name) : []);
      perOp.set(st.name.text, { request: names(args[3]), reply: names(args[5]) });
    }
    out.set(file, perOp);
  }
  return out;
}

let cached: SdkOperation[] | undefined;

/**
 * Every public operation of the SDK modules in {@link SDK_MODULES}, with its URL for {@link SDK_HOST} and its
 * request fields from the typings. Takes a few seconds (the TypeScript checker reads the typings); cached.
 * @throws Error when a module's meta exports a builder its typings do not declare (a layout change of the SDK)
 */
export function sdkOperations(): SdkOperation[] {
  if (cached) return cached;
  const jsFiles = SDK_MODULES.map((m) => metaFile(m));
  const dtsFiles = jsFiles.map((f) => join(dirname(f), 'meta.d.ts'));
  const typings = typingsOf(dtsFiles);
  const ops: SdkOperation[] = [];
  SDK_MODULES.forEach((module, i) => {
    const meta = require(jsFiles[i]!) as Record<string, unknown>;
    const types = typings.get(dtsFiles[i]!)!;
    for (const [name, value] of Object.entries(meta)) {
      if (typeof value !== 'function' || !/^[a-z]/.test(name)) continue;
      const b = (value as () => MetaBuilder)();
      if (typeof b?.httpMethod !== 'string' || typeof b.getUrl !== 'function') continue;
      const fields = types.get(name);
      if (!fields) throw new Error(`@wix/auto_sdk_${module}: meta exports ${name} but its typings do not declare it`);
      ops.push({
        module,
        name,
        method: b.httpMethod,
        path: b.path,
        url: templated(b.getUrl({ host: SDK_HOST }), b.pathParams ?? {}),
        requestFields: fields.request,
        replyFields: fields.reply,
      });
    }
  });
  return (cached = ops);
}

/** The SDK's typings of one module's wire types, by name (e.g. `DeviceAuthorizeResponse`): their top-level fields. */
export function sdkTypeFields(module: SdkModule, typeName: string): string[] {
  const file = join(dirname(metaFile(module)), 'meta.d.ts');
  const program = ts.createProgram([file], { skipLibCheck: true, types: [], noEmit: true, target: ts.ScriptTarget.ES2022 });
  const checker = program.getTypeChecker();
  const sf = program.getSourceFile(file)!;
  for (const st of sf.statements) {
    if ((ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) && st.name.text === typeName) {
      return checker.getPropertiesOfType(checker.getTypeAtLocation(st.name)).map((p) => p.name);
    }
  }
  throw new Error(`@wix/auto_sdk_${module} declares no type ${typeName}`);
}

/** A URL or path with every placeholder (`{a.b}`, `{a}`) made `{}`, for comparing templates. */
export function shapeOf(template: string): string {
  return template.replace(/\{[^}]*\}/g, '{}');
}
