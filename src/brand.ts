// Brand data (SPEC §1): build.ts writes it into each brand's index.html, so
// the JavaScript is the same for every brand and only the page differs.
export interface Brand {
  id: string;
  title: string;
  copyright: string;
  logo: string;
}

function readBrand(): Brand {
  const fallback: Brand = { id: '', title: document.title, copyright: '', logo: '' };
  try {
    return { ...fallback, ...JSON.parse(document.getElementById('brand')?.textContent ?? '{}') };
  } catch {
    return fallback;
  }
}

export const brand = readBrand();
