// Copies text to the clipboard. The Clipboard API only exists on secure origins; a self-hosted
// http:// page falls back to execCommand. Resolves to whether the text was copied.
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard) {
      await navigator.clipboard.writeText(text);
      return true;
    }
    const area = Object.assign(document.createElement("textarea"), { value: text, readOnly: true });
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    const isCopied = document.execCommand("copy");
    area.remove();
    return isCopied;
  } catch {
    return false;
  }
}
