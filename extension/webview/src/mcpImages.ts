// Images an MCP tool returned, shown inline in its tool card. The sidecar
// saves each one directly in its storage directory's mcp-images/ folder,
// named by the SHA-256 of its bytes with one of four raster extensions
// (server/internal/workspace/mcpclient/images.go), and names it in the result's
// meta.images. The meta is untrusted: only a path inside the folder the
// host named, through the same segment checks as screenshots, and with
// exactly that file-name shape gets a src. The host lets the webview load
// nothing else from disk, and opens the full size only after its own
// check (webviewHtml.ts isMcpImagePath).
import type { ScreenshotRoot } from '../../shared/webviewMessages';
import { srcInside } from './screenshots';

/** One image in meta.images. */
export interface McpImage {
  path: string;
  mimeType: string;
  size?: number;
}

const NAME = /^[0-9a-f]{64}\.(png|jpg|gif|webp)$/;

/** The webview URI of an MCP image path, or undefined when it may not be shown. */
export function mcpImageSrc(path: string, root: ScreenshotRoot | undefined): string | undefined {
  const r = srcInside(path, root);
  return r && r.segs.length === 1 && NAME.test(r.segs[0]) ? r.src : undefined;
}

/** The images of an MCP tool result (meta.images); malformed entries are dropped. */
export function mcpImagesFromMeta(meta: unknown): McpImage[] {
  if (!meta || typeof meta !== 'object') return [];
  const imgs = (meta as Record<string, unknown>).images;
  if (!Array.isArray(imgs)) return [];
  return imgs.flatMap((v): McpImage[] => {
    if (!v || typeof v !== 'object') return [];
    const o = v as Record<string, unknown>;
    if (typeof o.path !== 'string' || typeof o.mimeType !== 'string') return [];
    return [{ path: o.path, mimeType: o.mimeType, size: typeof o.size === 'number' ? o.size : undefined }];
  });
}
