// The users of a fresh store: a few hundred in many scripts, the same every
// time (a seeded generator, which the records use too).
import type { DeviceModel } from '../../model.ts';
import type { User } from '../../types.ts';
import { prng } from '../../prng.ts';

/**
 * Given names (m, f) and family names ("masculine|feminine" where they
 * differ) per language, so a name reads as one person's; `first` puts the
 * family name first, `join` is what stands between.
 */
const NAMES: { lang: string; weight: number; m: string[]; f: string[]; family: string[]; join?: string; first?: boolean }[] = [
  // Latin script, with accents
  { lang: 'es', weight: 8, m: ['José', 'Ángel', 'Mateo', 'Sebastián', 'Andrés'], f: ['María', 'Mónica', 'Lucía', 'Begoña', 'Inés'], family: ['García', 'Sánchez', 'Núñez', 'Ibáñez', 'Muñoz', 'Peña'] },
  { lang: 'pt', weight: 4, m: ['João', 'Luís', 'Gonçalo', 'Tomé'], f: ['Inês', 'Conceição', 'Leonor', 'Lúcia'], family: ['Gonçalves', 'da Conceição', 'Simões', 'Magalhães', 'Araújo'] },
  { lang: 'fr', weight: 4, m: ['François', 'Jean-Luc', 'Noël', 'Jérôme'], f: ['Hélène', 'Chloé', 'Anaïs', 'Renée', 'Zoë'], family: ['Lefèvre', 'Dubois', 'Mercier', 'Lemaître', 'Girard'] },
  { lang: 'de', weight: 4, m: ['Jürgen', 'Lukas', 'Jörg', 'Matthias'], f: ['Dörte', 'Jana', 'Käthe', 'Sophie'], family: ['Müller', 'Schäfer', 'Größer', 'Köhler', 'Weiß'] },
  { lang: 'nordic', weight: 2, m: ['Björn', 'Søren', 'Ólafur', 'Jyrki'], f: ['Åsa', 'Ingrid', 'Sigríður', 'Päivi'], family: ['Østergaard', 'Jääskeläinen', 'Sigurðsson', 'Lindqvist'] },
  { lang: 'pl-cs', weight: 4, m: ['Łukasz', 'Paweł', 'Tomáš', 'Jiří'], f: ['Małgorzata', 'Agnieszka', 'Eliška', 'Kateřina'], family: ['Kowalczyk', 'Wiśniewski|Wiśniewska', 'Dvořák|Dvořáková', 'Novák|Nováková'] },
  { lang: 'tr', weight: 2, m: ['Çağan', 'Emre', 'Barış'], f: ['Ayşe', 'Gülşen', 'Şule'], family: ['Öztürk', 'Yılmaz', 'Çelik', 'Şahin'] },
  { lang: 'vi', weight: 3, m: ['Văn An', 'Minh Tuấn', 'Đức Huy'], f: ['Thị Hoa', 'Thu Trang', 'Ngọc Ánh'], family: ['Nguyễn', 'Trần', 'Lê', 'Phạm'], first: true },
  // Other scripts
  { lang: 'ru-uk', weight: 10, m: ['Александр', 'Дмитрий', 'Сергей', 'Олександр', 'Богдан', 'Андрей', 'Тарас'], f: ['Ольга', 'Наталья', 'Ирина', 'Оксана', 'Светлана', 'Елена', 'Софія'], family: ['Иванов|Иванова', 'Смирнов|Смирнова', 'Шевченко', 'Коваленко', 'Бондаренко', 'Петров|Петрова', 'Волков|Волкова'] },
  { lang: 'el', weight: 7, m: ['Γιώργος', 'Νίκος', 'Δημήτρης', 'Γιάννης', 'Κώστας'], f: ['Μαρία', 'Ελένη', 'Κατερίνα', 'Σοφία', 'Δέσποινα'], family: ['Παπαδόπουλος|Παπαδοπούλου', 'Οικονόμου', 'Γεωργίου', 'Νικολάου', 'Καραγιάννης|Καραγιάννη', 'Βασιλείου'] },
  { lang: 'ar', weight: 8, m: ['محمد', 'أحمد', 'يوسف', 'عمر', 'خالد', 'إبراهيم'], f: ['فاطمة', 'ليلى', 'مريم', 'نور', 'سارة', 'عائشة'], family: ['الحسيني', 'العلي', 'حداد', 'منصور', 'الخطيب', 'ناصر', 'الشامي'] },
  { lang: 'he', weight: 6, m: ['דוד', 'יוסף', 'משה', 'אברהם', 'יונתן', 'איתי'], f: ['שרה', 'רחל', 'נועה', 'מיכל', 'תמר', 'יעל'], family: ['כהן', 'לוי', 'מזרחי', 'פרץ', 'ביטון', 'פרידמן', 'שפירא'] },
  { lang: 'th', weight: 7, m: ['สมชาย', 'วิชัย', 'ประเสริฐ', 'อนุชา', 'ธนากร'], f: ['สมศรี', 'สุดารัตน์', 'กาญจนา', 'มาลี', 'พิมพ์ชนก'], family: ['ใจดี', 'ศรีสุข', 'วงศ์สวัสดิ์', 'รัตนพันธ์', 'ทองดี', 'แสงทอง'] },
  { lang: 'hi-mr', weight: 7, m: ['राहुल', 'अमित', 'विजय', 'संजय', 'अर्जुन', 'प्रकाश'], f: ['प्रिया', 'सुनीता', 'अनीता', 'पूजा', 'कविता', 'दीपिका'], family: ['शर्मा', 'वर्मा', 'गुप्ता', 'पाटील', 'सिंह', 'जोशी', 'देशपांडे'] },
  // CJK
  { lang: 'zh', weight: 12, m: ['伟', '强', '磊', '军', '洋', '志明', '建国'], f: ['芳', '娜', '秀英', '敏', '静', '丽', '婷婷'], family: ['王', '李', '张', '刘', '陈', '杨', '赵', '黄', '欧阳'], join: '', first: true },
  { lang: 'ja', weight: 7, m: ['翔太', '大輝', '健一', '拓海', '蓮'], f: ['さくら', '陽菜', '美咲', '結衣', 'あおい'], family: ['佐藤', '鈴木', '高橋', '田中', '渡辺', '山本'], first: true },
  { lang: 'ko', weight: 6, m: ['민준', '지훈', '도윤', '예준'], f: ['서연', '하은', '수빈', '지우'], family: ['김', '이', '박', '최', '정', '강'], join: '', first: true },
];

const DAY = 86400000;
/** Seeded names stay short enough for any list column (the contract allows more). */
const SEED_NAME_MAX = 24;
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The users of a fresh store: `model.seedUsers` (at most MaxUser), IDs 1..N, within every capacity. */
export function seedUsers(model: DeviceModel): User[] {
  const rnd = prng(0x5eed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)];
  const chance = (p: number) => rnd() < p;
  const totalWeight = NAMES.reduce((n, s) => n + s.weight, 0);
  const n = Math.max(0, Math.min(model.seedUsers ?? 300, model.MaxUser));
  const cards = new Set<string>();
  const pins = new Set<string>();
  let faces = 0;
  let fingers = 0;
  const users: User[] = [];
  const fixed = ['Ana García', '李伟', 'Νίκος Παπαδόπουλος'];

  for (let i = 1; i <= n; i++) {
    let name = fixed[i - 1];
    while (!name || name.length > SEED_NAME_MAX) {
      let w = rnd() * totalWeight;
      const l = NAMES.find((x) => (w -= x.weight) < 0) ?? NAMES[0];
      const female = chance(0.5);
      const given = pick(female ? l.f : l.m);
      const family = pick(l.family).split('|');
      const fam = (female && family[1]) || family[0];
      name = l.first ? fam + (l.join ?? ' ') + given : given + (l.join ?? ' ') + fam;
    }
    let CardNo = '';
    if (cards.size < model.MaxCard && chance(0.6)) {
      do CardNo = String(1 + Math.floor(rnd() * 4294967295));
      while (cards.has(CardNo));
      cards.add(CardNo);
    }
    let Password = '';
    if (chance(0.15)) {
      do Password = String(Math.floor(rnd() * 10 ** (4 + Math.floor(rnd() * 3)))).padStart(4, '0');
      while (pins.has(Password));
      pins.add(Password);
    }
    let AccessBegin = '';
    let AccessEnd = '';
    const period = rnd();
    const begin = Date.UTC(2025, 0, 1) + Math.floor(rnd() * 730) * DAY;
    const end = begin + (30 + Math.floor(rnd() * 700)) * DAY;
    if (period < 0.2) [AccessBegin, AccessEnd] = [dayText(begin), dayText(end)];
    else if (period < 0.3) AccessBegin = dayText(begin);
    else if (period < 0.4) AccessEnd = dayText(end);
    let Face: 0 | 1 = 0;
    if (model.funOption.FACE && faces < model.MaxFACE && chance(0.55)) {
      Face = 1;
      faces++;
    }
    let FPMask = 0;
    if (model.funOption.FP && chance(0.7)) {
      // Forefingers and thumbs first, as enrolment stations ask.
      for (const f of [6, 3, 5, 4].slice(0, 1 + Math.floor(rnd() * 3))) {
        if (fingers >= model.MaxFP) break;
        FPMask |= 1 << f;
        fingers++;
      }
    }
    users.push({
      UserID: String(i),
      UserName: name,
      Password,
      CardNo,
      CardType: CardNo && chance(0.3) ? 1 : 0,
      Admin: i === 1 ? 1 : chance(0.02) ? 1 + Math.floor(rnd() * 3) : 0,
      Group: chance(0.3) ? 1 : 0,
      IdentifyMode: chance(0.7) ? 0 : 1 + Math.floor(rnd() * 6),
      Shift: chance(0.5) ? 0 : 1 + Math.floor(rnd() * 2),
      AccessBegin,
      AccessEnd,
      Face,
      FPMask,
      Photo: 0,
    });
  }
  return users;
}
