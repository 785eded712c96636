import type { OpenApiParameter } from '../../src/index';

/**
 * A parameter's example as a tool sends it, per OpenAPI's form style: with `explode`
 * each item its own `key=value`, without it the items joined by `,`; each part encoded.
 */
export function exampleQuery(parameter: OpenApiParameter): string {
  const values = Array.isArray(parameter.example) ? parameter.example.map(String) : [String(parameter.example)];
  const name = encodeURIComponent(parameter.name);
  if (parameter.explode === false) return `${name}=${values.map(encodeURIComponent).join(',')}`;
  return values.map((v) => `${name}=${encodeURIComponent(v)}`).join('&');
}
