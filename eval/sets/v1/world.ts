/** The customers: seventy-two companies (hand-written names and industries) and the vocabularies their facts draw on. */

export interface Customer {
  slug: string;
  name: string;
  industry: string;
  city: string;
}

const ROWS = `acme-logistics|Acme Logistics|freight forwarding|Rotterdam
brightline-health|Brightline Health|telehealth|Boston
corvid-analytics|Corvid Analytics|marketing analytics|Austin
dunmore-foods|Dunmore Foods|grocery distribution|Cork
evergreen-cu|Evergreen Credit Union|retail banking|Portland
fable-games|Fable Games|mobile gaming|Helsinki
granite-insurance|Granite Insurance|commercial insurance|Hartford
harbor-freightworks|Harbor Freightworks|port logistics|Hamburg
ionic-energy|Ionic Energy|battery storage|Oslo
juniper-schools|Juniper Schools|K-12 education|Denver
kestrel-aero|Kestrel Aerospace|aircraft maintenance|Toulouse
lumen-retail|Lumen Retail|fashion retail|Milan
meridian-bank|Meridian Bank|private banking|Zurich
northwind-travel|Northwind Travel|travel booking|Seattle
orchard-pharma|Orchard Pharma|clinical trials|Basel
pinecrest-realty|Pinecrest Realty|property management|Atlanta
quarry-media|Quarry Media|digital publishing|London
redwood-legal|Redwood Legal|legal services|San Francisco
sable-security|Sable Security|cybersecurity|Tel Aviv
tandem-bikes|Tandem Bikes|bicycle sharing|Copenhagen
umbra-studios|Umbra Studios|film post-production|Vancouver
vantage-motors|Vantage Motors|car dealerships|Detroit
willow-care|Willow Care|home care|Manchester
xenon-labs|Xenon Labs|semiconductor testing|Eindhoven
yellowfin-tours|Yellowfin Tours|tour operator|Sydney
zephyr-air|Zephyr Air|regional airline|Dublin
alder-farms|Alder Farms|agritech|Des Moines
beacon-hr|Beacon HR|payroll software|Chicago
cobalt-mining|Cobalt Mining|mining|Perth
delta-dental|Delta Dental Partners|dental clinics|Phoenix
ember-coffee|Ember Coffee|coffee chain|Melbourne
fjord-shipping|Fjord Shipping|shipping|Bergen
gala-events|Gala Events|event ticketing|Madrid
helix-genomics|Helix Genomics|genomics|Cambridge
indigo-fashion|Indigo Fashion|e-commerce|Paris
jade-hotels|Jade Hotels|hospitality|Singapore
kinetic-fitness|Kinetic Fitness|gym chain|Los Angeles
lighthouse-ngo|Lighthouse Foundation|nonprofit|Geneva
maple-grocers|Maple Grocers|supermarkets|Toronto
nimbus-cloud|Nimbus Cloud|hosting|Frankfurt
onyx-payments|Onyx Payments|payments|Dublin
pulse-radio|Pulse Radio|broadcasting|Johannesburg
quill-publishing|Quill Publishing|book publishing|New York
riverside-clinic|Riverside Clinic|outpatient care|Leeds
solstice-solar|Solstice Solar|solar installation|Phoenix
terra-maps|Terra Maps|mapping data|Munich
urban-parking|Urban Parking|parking operator|Lyon
vertex-robotics|Vertex Robotics|warehouse robotics|Pittsburgh
waverly-uni|Waverly University|higher education|Edinburgh
yarrow-pets|Yarrow Pets|pet supplies|Dallas
zinc-telecom|Zinc Telecom|telecommunications|Warsaw
arbor-homes|Arbor Homes|home building|Charlotte
bluefin-seafood|Bluefin Seafood|seafood export|Reykjavik
cascade-water|Cascade Water|water utility|Sacramento
dynamo-sports|Dynamo Sports|sports league|Manchester
echo-audio|Echo Audio|audio hardware|Stockholm
falcon-couriers|Falcon Couriers|last-mile delivery|Dubai
grove-organics|Grove Organics|organic food|Bristol
horizon-rail|Horizon Rail|rail operator|Vienna
iris-optics|Iris Optics|eyewear|Florence
jetstream-labs|Jetstream Labs|drone inspection|Calgary
keystone-steel|Keystone Steel|steel fabrication|Cleveland
lotus-spa|Lotus Spa Group|wellness|Bangkok
mosaic-arts|Mosaic Arts Council|arts funding|Barcelona
nova-insure|Nova Insure|car insurance|Lisbon
opal-jewelry|Opal Jewelry|jewelry retail|Antwerp
prairie-grain|Prairie Grain Co-op|agriculture cooperative|Winnipeg
quantum-freight|Quantum Freight|trucking|Memphis
ridge-outdoor|Ridge Outdoor|outdoor gear|Boulder
summit-clinics|Summit Clinics|urgent care|Salt Lake City
tidal-marine|Tidal Marine|marine engineering|Southampton
unity-credit|Unity Credit|consumer lending|Nairobi`;

export const CUSTOMERS: Customer[] = ROWS.split('\n').map((row) => {
  const [slug, name, industry, city] = row.split('|') as [string, string, string, string];
  return { slug, name, industry, city };
});

export const PLANS = ['Starter', 'Team', 'Pro', 'Business', 'Enterprise'] as const;
export const SSO = ['Okta', 'Azure AD', 'Google Workspace', 'OneLogin', 'JumpCloud', 'Ping Identity'];
export const REGIONS = [
  ['EU', 'eu-central-1 (Frankfurt)'],
  ['EU', 'eu-west-1 (Ireland)'],
  ['US', 'us-east-1 (Virginia)'],
  ['US', 'us-west-2 (Oregon)'],
  ['APAC', 'ap-southeast-1 (Singapore)'],
  ['APAC', 'ap-southeast-2 (Sydney)'],
] as const;
export const CHANNELS = [
  'the REST API from their backend',
  'the Segment destination',
  'the Kafka connector',
  'the Python SDK',
  'the JavaScript browser SDK',
  'nightly CSV uploads to the S3 drop bucket',
  'the Snowflake reverse sync',
];
export const SUPPORT = [
  ['Standard', 'next business day'],
  ['Premium', 'four business hours'],
  ['24/7 Premier', 'one hour, around the clock'],
] as const;
export const PAYMENT = [
  'pays by card, billed monthly in USD',
  'pays annually by invoice, net 30, in EUR',
  'pays annually by wire transfer in USD and needs a PO number on every invoice',
  'pays quarterly by invoice, net 45, in GBP',
  'pays by SEPA direct debit, billed monthly in EUR',
  'pays annually through AWS Marketplace',
];
export const CONTACT_STYLE = [
  'prefers email and dislikes unscheduled calls',
  'wants updates in the shared Slack Connect channel',
  'prefers a short call over long email threads',
  'asks for everything in writing so legal can review it',
  'only responds during their morning hours',
  'wants a monthly written summary instead of ad hoc pings',
];
export const FIRST = [
  'Maria',
  'James',
  'Aisha',
  'Lukas',
  'Hannah',
  'Diego',
  'Fatima',
  'Peter',
  'Mei',
  'Samuel',
  'Olga',
  'Kenji',
  'Grace',
  'Ahmed',
  'Laura',
  'Ivan',
  'Zoe',
  'Carlos',
  'Nadia',
  'Ben',
  'Sara',
  'Tomas',
  'Leila',
  'Erik',
];
export const LAST = [
  'Jensen',
  'Okoye',
  'Schmidt',
  'Costa',
  'Nguyen',
  'Dubois',
  'Kowalski',
  'Silva',
  'Andersson',
  'Murphy',
  'Rossi',
  'Yamamoto',
  'Haddad',
  'Fischer',
  'Novak',
  'Barros',
  'Larsen',
  'Kaplan',
  'Moreno',
  'Ivanova',
];
export const ROLES = [
  'Head of Data',
  'VP Engineering',
  'IT Director',
  'Product Ops Lead',
  'CTO',
  'Analytics Manager',
];
