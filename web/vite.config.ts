// The browser client is built into the Python package, so `pip install rummykit` serves it without Node.
// Asset names carry a content hash (stable for the same sources), so a rebuild of unchanged sources
// leaves the committed files byte for byte the same.
import { defineConfig } from "vite";

export default defineConfig({
  base: "/",
  // `npm run dev` serves the sources with live reload and passes the API and WebSockets on to a running
  // `rummykit serve --allow-origin http://localhost:5173` on port 8000.
  server: {
    proxy: {
      "/api": "http://127.0.0.1:8000",
      "/ws": { target: "ws://127.0.0.1:8000", ws: true },
    },
  },
  build: {
    outDir: "../src/rummykit/server/static",
    emptyOutDir: true,
    target: "es2020",
    sourcemap: false,
    rollupOptions: {
      output: {
        entryFileNames: "assets/app-[hash].js",
        chunkFileNames: "assets/chunk-[hash].js",
        assetFileNames: "assets/[name]-[hash][extname]",
      },
    },
  },
});
