// Next.js configuration. Server-only packages that load WebAssembly or native sockets at run time
// stay outside the bundle and are required from node_modules as they are.
/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "@prisma/schema-engine-wasm",
    "@prisma/adapter-pg",
    "@prisma/client",
    "oidc-provider",
    "pg",
  ],
};

export default nextConfig;
