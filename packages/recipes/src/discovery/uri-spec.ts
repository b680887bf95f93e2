/**
 * Curator's UriSpec: a URI template such as `{scheme}://{address}:{port}/api`, kept in an instance's JSON as its
 * parsed parts (`{"parts":[{"value":"scheme","variable":true},…]}`), so a reader rebuilds the address without
 * parsing the template again. Parsing follows Curator's rules: text between braces is a variable (trimmed),
 * braces do not nest, and an empty `{}` adds nothing.
 */
import { RecipeArgumentError } from '../errors.js';
import { checkArg, rules } from '../internal/index.js';

/** One piece of a UriSpec: literal text, or the name of a variable filled in by buildUri(). */
export interface UriSpecPart {
  readonly value: string;
  readonly variable: boolean;
}

/** A parsed URI template (Curator's UriSpec), as it is stored in an instance's JSON. */
export interface UriSpec {
  readonly parts: readonly UriSpecPart[];
}

/**
 * Parses a template: `{name}` is a variable, anything else literal text. Throws RecipeArgumentError for a brace
 * inside a variable, a `}` without its `{`, or a variable left open (the cases Curator refuses).
 */
export function parseUriSpec(template: string): UriSpec {
  checkArg('parseUriSpec', 'template', template, rules.string);
  const parts: UriSpecPart[] = [];
  let inside = false;
  // Split on the braces, keeping them; empty pieces (two braces in a row) are dropped as Curator's tokenizer does.
  for (const token of template.split(/([{}])/).filter((t) => t !== '')) {
    if (token === '{') {
      if (inside) throw new RecipeArgumentError(`uri spec ${JSON.stringify(template)}: "{" inside a variable`);
      inside = true;
    } else if (token === '}') {
      if (!inside) throw new RecipeArgumentError(`uri spec ${JSON.stringify(template)}: "}" without "{"`);
      inside = false;
    } else {
      parts.push({ value: inside ? token.trim() : token, variable: inside });
    }
  }
  if (inside) throw new RecipeArgumentError(`uri spec ${JSON.stringify(template)}: a variable is not closed with "}"`);
  return { parts };
}

/** A parsed UriSpec: `parts` of `{ value, variable }`. */
export const URI_SPEC = {
  expect: 'a UriSpec ({ parts: [{ value, variable }] })',
  test: (v: unknown) => typeof v === 'object' && v !== null && Array.isArray((v as UriSpec).parts)
    && (v as UriSpec).parts.every((p) => typeof p === 'object' && p !== null && typeof p.value === 'string' && typeof p.variable === 'boolean'),
};

/** What buildUri() needs of an instance: the fields its predefined variables name. */
export interface UriFields {
  readonly name: string;
  readonly id: string;
  readonly address: string | null;
  readonly port: number | null;
  readonly sslPort: number | null;
  readonly registrationTimeUTC: number;
  readonly serviceType: string;
}

/**
 * Fills a UriSpec in, as Curator's `UriSpec.build(instance, variables)` does: the predefined variables `scheme`
 * (`https` when the instance has an sslPort, else `http`), `name`, `id`, `address`, `port`, `ssl-port`,
 * `registration-time-utc`, `service-type` (lower case), `[` and `]` (literal braces); `variables` override them.
 * A variable that has no value is left out (an absent port becomes the empty string).
 */
export function buildUri(spec: UriSpec, instance?: UriFields, variables: Readonly<Record<string, unknown>> = {}): string {
  checkArg('buildUri', 'spec', spec, URI_SPEC);
  if (instance !== undefined) checkArg('buildUri', 'instance', instance, rules.object);
  checkArg('buildUri', 'variables', variables, rules.object);
  const values = new Map<string, unknown>([
    ['[', '{'],
    [']', '}'],
    ['scheme', instance?.sslPort != null ? 'https' : 'http'],
  ]);
  if (instance !== undefined) {
    values.set('name', instance.name);
    values.set('id', instance.id);
    values.set('address', instance.address ?? '');
    values.set('port', instance.port ?? '');
    values.set('ssl-port', instance.sslPort ?? '');
    values.set('registration-time-utc', instance.registrationTimeUTC);
    values.set('service-type', instance.serviceType.toLowerCase());
  }
  for (const [key, value] of Object.entries(variables)) values.set(key, value);
  let uri = '';
  for (const part of spec.parts) {
    if (!part.variable) {
      uri += part.value;
      continue;
    }
    const value = values.get(part.value);
    if (value !== undefined && value !== null) uri += String(value);
  }
  return uri;
}
