/** The service's version, as OpenAPI and MCP report it. */
export const API_VERSION = '0.1.0';
