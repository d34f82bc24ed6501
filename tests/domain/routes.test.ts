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
