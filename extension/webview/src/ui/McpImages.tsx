import * as l10n from '@vscode/l10n';
import { useServices } from '../context';
import { mcpImageSrc, mcpImagesFromMeta } from '../mcpImages';
import type { ToolBlock } from '../model';

/**
 * The images an MCP tool returned, under its card like browser
 * screenshots: inline, as wide as the sidebar allows (styles.css
 * .tool-shot), a click opens the full size. An image the webview may not
 * load (a path outside the MCP image folder) stays a button the host
 * checks again.
 */
export function McpImages({ block }: { block: ToolBlock }) {
  const { bridge, store } = useServices();
  const imgs = block.status === 'done' || block.status === 'error' ? mcpImagesFromMeta(block.meta) : [];
  const server = serverOf(block.meta);
  return (
    <>
      {imgs.map((img, i) => {
        const n = imgs.length > 1 ? ` ${i + 1}` : '';
        const open = () => bridge.post({ type: 'openImage', path: img.path });
        const src = mcpImageSrc(img.path, store.state.mcpImages);
        const alt = (server ? l10n.t('Image from {0}', server) : l10n.t('Image')) + n;
        return src ? (
          <button key={img.path + i} type="button" class="tool-shot" data-testid="mcp-image" title={l10n.t('Open full size')} onClick={open}>
            <img src={src} alt={alt} loading="lazy" />
          </button>
        ) : (
          <vscode-button key={img.path + i} secondary data-testid="open-mcp-image" onClick={open}>
            <span class="codicon codicon-file-media" /> {l10n.t('Open image')}
            {n}
          </vscode-button>
        );
      })}
    </>
  );
}

function serverOf(meta: unknown): string {
  const s = meta && typeof meta === 'object' ? (meta as Record<string, unknown>).server : undefined;
  return typeof s === 'string' ? s : '';
}
