// Page data build.ts writes into each brand's index.html: the brand (SPEC §1)
// and the names of files loaded later. The JavaScript is the same for every
// brand; only the page differs.
export interface Brand {
  id: string;
  title: string;
  copyright: string;
  logo: string;
}

interface PageData {
  brand: Brand;
  /** Stylesheet of the signed-in layout (not needed by the login page). */
  layoutCss?: string;
}

function readPageData(): PageData {
  const fallback: PageData = { brand: { id: '', title: document.title, copyright: '', logo: '' } };
  try {
    const data = JSON.parse(document.getElementById('console-data')?.textContent ?? '{}') as Partial<PageData>;
    return { ...fallback, ...data, brand: { ...fallback.brand, ...data.brand } };
  } catch {
    return fallback;
  }
}

export const pageData = readPageData();
export const brand = pageData.brand;

/** Apply a stylesheet and resolve once it has loaded. */
export function loadStylesheet(href: string | undefined): Promise<void> {
  if (!href || document.querySelector(`link[rel=stylesheet][href="${href}"]`)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.onload = () => resolve();
    link.onerror = () => {
      link.remove();
      reject(new Error(`stylesheet ${href}`));
    };
    document.head.append(link);
  });
}
