/** Every app address is built by src/domain/routes.ts (SPEC §2 route table). */
import { describe, expect, it } from 'vitest';
import {
  acceptInvitationPath,
  classroomCatalogPath,
  listenPath,
  paths,
  publicationPath,
  publicationReadPath,
  qrPath,
  readerPath,
  signInPath,
  signUpPath,
  teaserPath,
  withQuery,
} from '../../src/domain/routes';
import { legacyEditionTarget } from '../../src/domain/legacyEdition';

describe('routes', () => {
  it('names the fixed pages', () => {
    expect(paths.catalog).toBe('/catalog');
    expect(paths.classroomCatalog).toBe('/classroom-catalog');
    expect(paths.account).toBe('/account');
    expect(paths.organization).toBe('/organization');
    expect(paths.uploads).toBe('/uploads');
  });

  it('adds a query only when there is one, with or without its ?', () => {
    expect(withQuery('/catalog', '')).toBe('/catalog');
    expect(withQuery('/catalog', '?p=2')).toBe('/catalog?p=2');
    expect(withQuery('/catalog', 'p=2')).toBe('/catalog?p=2');
  });

  it('sends sign-in and sign-up back with redirectUrl', () => {
    expect(signInPath('/account')).toBe('/sign-in?redirectUrl=%2Faccount');
    expect(signUpPath('/catalog?search=bee')).toBe('/sign-up?redirectUrl=%2Fcatalog%3Fsearch%3Dbee');
  });

  it('builds the publication, read, reader, listen and teaser addresses', () => {
    expect(publicationPath('how-bees-make-honey', 'v1')).toBe('/how-bees-make-honey/v1');
    expect(publicationPath('how-bees-make-honey')).toBe('/how-bees-make-honey');
    expect(publicationReadPath('how-bees-make-honey', 'v1', '?groupCode=X')).toBe('/how-bees-make-honey/v1/read?groupCode=X');
    expect(readerPath({ slug: 'how-bees-make-honey', version: 'v1', primary: { language: 'en', level: 'GOLD' }, position: 2 })).toBe(
      '/how-bees-make-honey/v1/en:gold/2',
    );
    expect(listenPath('how-bees-make-honey', 'v1', 'en-GOLD')).toBe('/listen/how-bees-make-honey/v1/en-GOLD');
    expect(listenPath('how-bees-make-honey', 'v1', 'en-GOLD', 3)).toBe('/listen/how-bees-make-honey/v1/en-GOLD/3');
    expect(teaserPath('how-bees-make-honey', 'v1', { language: 'en', level: 'GOLD' }, 4)).toBe('/teaser/how-bees-make-honey/v1/en:gold/4');
  });

  it('encodes the codes and ids it puts in an address', () => {
    expect(qrPath('bees-1')).toBe('/qr/bees-1');
    expect(acceptInvitationPath('a/b')).toBe('/accept-invitation/a%2Fb');
    expect(classroomCatalogPath()).toBe('/classroom-catalog');
    expect(classroomCatalogPath('ABCD1234')).toBe('/classroom-catalog?groupCode=ABCD1234');
  });
});

describe('legacyEditionSlug (SPEC §2)', () => {
  it("sends a publication's address to the reader address of that edition, at passage 1", () => {
    expect(legacyEditionTarget('/how-bees-make-honey/v1', 'legacyEditionSlug=es-ORIGINAL')).toBe('/how-bees-make-honey/v1/es:original/1');
    expect(legacyEditionTarget('/how-bees-make-honey/v1/read', '?legacyEditionSlug=en-gold')).toBe('/how-bees-make-honey/v1/en:gold/1');
    expect(legacyEditionTarget('/How-Bees-Make-Honey/V2', 'legacyEditionSlug=ar-original')).toBe('/how-bees-make-honey/v2/ar:original/1');
  });
  it('reads a bare level as English', () => {
    expect(legacyEditionTarget('/how-bees-make-honey/v1', 'legacyEditionSlug=SILVER')).toBe('/how-bees-make-honey/v1/en:silver/1');
  });
  it('without a version, opens the latest (the reader writes the canonical address)', () => {
    expect(legacyEditionTarget('/how-bees-make-honey', 'legacyEditionSlug=es-ORIGINAL')).toBe('/how-bees-make-honey/es:original/1');
    expect(legacyEditionTarget('/how-bees-make-honey/read', 'legacyEditionSlug=es-ORIGINAL')).toBe('/how-bees-make-honey/es:original/1');
    expect(legacyEditionTarget('/how-bees-make-honey/overview', 'legacyEditionSlug=GOLD')).toBe('/how-bees-make-honey/en:gold/1');
  });
  it('takes the position parameter, and keeps the other parameters', () => {
    expect(legacyEditionTarget('/how-bees-make-honey/v1', 'legacyEditionSlug=es-ORIGINAL&position=3&groupCode=ABCD1234')).toBe(
      '/how-bees-make-honey/v1/es:original/3?groupCode=ABCD1234',
    );
    expect(legacyEditionTarget('/how-bees-make-honey/v1', 'legacyEditionSlug=es-ORIGINAL&position=zero')).toBe('/how-bees-make-honey/v1/es:original/1');
    expect(legacyEditionTarget('/how-bees-make-honey/v1', 'legacyEditionSlug=es-ORIGINAL&position=0')).toBe('/how-bees-make-honey/v1/es:original/1');
  });
  it('sends a reference that names no edition to the 404 page', () => {
    expect(legacyEditionTarget('/how-bees-make-honey/v1', 'legacyEditionSlug=fr-GOLD')).toBe(paths.notFound);
    expect(legacyEditionTarget('/how-bees-make-honey/v1', 'legacyEditionSlug=es-BRONZE')).toBe(paths.notFound);
    expect(legacyEditionTarget('/how-bees-make-honey', 'legacyEditionSlug=')).toBe(paths.notFound);
  });
  it('leaves alone addresses without it, and addresses that are not a publication', () => {
    expect(legacyEditionTarget('/how-bees-make-honey/v1', '')).toBeNull();
    expect(legacyEditionTarget('/how-bees-make-honey/v1', 'editionSlug=es-ORIGINAL')).toBeNull();
    for (const path of ['/', '/catalog', '/classroom-catalog', '/sign-in', '/terms', '/qr/abc', '/listen/a/v1/en-gold', '/teaser/a/v1/en:gold/1', '/accept-invitation/x', '/how-bees-make-honey/v1/en:gold/2', '/a/b']) {
      expect(legacyEditionTarget(path, 'legacyEditionSlug=es-ORIGINAL'), path).toBeNull();
    }
  });
});
