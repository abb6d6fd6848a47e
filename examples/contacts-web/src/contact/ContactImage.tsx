import { useState } from 'react';
import { graphql, useFragment, type FragmentType } from '../gql';

/** Fragment on the query: it signs each image's link for the contact of the page ($identifier). */
export const ContactImageFragment = graphql(`
  fragment ContactImage_query on Query {
    dynamicImages(perPage: 10) {
      data {
        id
        name
        enabled
        renderUrl(contact: $identifier)
      }
    }
  }
`);

/**
 * The link names the API's public address (PUBLIC_BASE_URL); this page is served by the API, so
 * it asks its own origin for the same path, whatever host name the browser used.
 */
const onThisOrigin = (url: string) => {
  const parsed = new URL(url, window.location.href);
  return `${parsed.pathname}${parsed.search}`;
};

/** A dynamic image drawn with this contact's values, as a message would carry it. */
export function ContactImage(props: { query: FragmentType<typeof ContactImageFragment>; contactName: string }) {
  const { dynamicImages } = useFragment(ContactImageFragment, props.query);
  const images = dynamicImages.data.filter((image) => image.enabled);
  const [chosen, setChosen] = useState(0);
  const image = images[Math.min(chosen, images.length - 1)];
  return (
    <section aria-labelledby="image-title" className="panel">
      <h2 id="image-title">Dynamic image</h2>
      {!image ? <p className="empty">The workspace has no enabled dynamic image.</p> : null}
      {images.length > 1 ? (
        <label>
          Image
          <select value={chosen} onChange={(e) => setChosen(Number(e.target.value))}>
            {images.map((img, i) => (
              <option key={img.id} value={i}>
                {img.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {image ? <img className="rendered" src={onThisOrigin(image.renderUrl)} alt={`${image.name} drawn for ${props.contactName}`} /> : null}
    </section>
  );
}
