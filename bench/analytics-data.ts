/**
 * What the analytics benchmark's scans look like: real user-agent strings (parsed by the project's
 * own parser, so browser/OS/device are what the redirect would record) and a skewed world of
 * 45 countries and ~320 cities, each with a weight. QR scans are mostly phones, so mobile agents
 * dominate; bots (~5% of scans, chosen by the generator) are the crawlers and link previewers a
 * short link actually sees.
 */

/** [user agent, weight]: human visitors. */
export const HUMAN_AGENTS: Array<[string, number]> = [
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    22,
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
    8,
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/123.0.6312.52 Mobile/15E148 Safari/604.1',
    4,
  ],
  ['Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.6312.80 Mobile Safari/537.36', 10],
  ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.6312.80 Mobile Safari/537.36', 5],
  ['Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Mobile Safari/537.36', 10],
  [
    'Mozilla/5.0 (Linux; Android 13; SAMSUNG SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36',
    5,
  ],
  ['Mozilla/5.0 (Linux; Android 13; 2201117TY) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.6261.119 Mobile Safari/537.36', 3],
  [
    'Mozilla/5.0 (Linux; U; Android 12; en-us; Redmi Note 11 Build/SKQ1.211103.001) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/112.0.5615.136 Mobile Safari/537.36 XiaoMi/MiuiBrowser/14.4.0-g',
    1,
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_3_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 322.0.2.27.108 (iPhone15,2; iOS 17_3_1; en_US; en; scale=3.00; 1179x2556; 573478223)',
    3,
  ],
  [
    'Mozilla/5.0 (Linux; Android 13; SM-G991B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.119 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/454.0.0.44.109;]',
    2,
  ],
  ['Mozilla/5.0 (Android 14; Mobile; rv:124.0) Gecko/124.0 Firefox/124.0', 1],
  ['Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1', 2],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.0.0 Safari/537.36', 8],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.0.0 Safari/537.36 Edg/123.0.2420.65', 3],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:124.0) Gecko/20100101 Firefox/124.0', 2],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15', 3],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.0.0 Safari/537.36', 3],
  ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.0.0 Safari/537.36', 1],
  [
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/121.0.0.0 Mobile Safari/537.36 OPR/80.4.4244.77398',
    1,
  ],
  [
    'Mozilla/5.0 (Linux; Android 10; HarmonyOS; ELS-NX9; HMSCore 6.13.0.302) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.5735.196 HuaweiBrowser/14.0.5.302 Mobile Safari/537.36',
    1,
  ],
  [
    'Mozilla/5.0 (Linux; U; Android 11; en-US; RMX2185 Build/RP1A.201005.001) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/100.0.4896.58 UCBrowser/13.4.0.1306 Mobile Safari/537.36',
    1,
  ],
];

/** [user agent, weight]: crawlers and link previewers (isbot must say so; the benchmark checks). */
export const BOT_AGENTS: Array<[string, number]> = [
  ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 3],
  [
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.216 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    2,
  ],
  ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 2],
  ['facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)', 3],
  ['WhatsApp/2.23.20.0', 3],
  ['Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', 1],
  ['curl/8.4.0', 1],
  ['python-requests/2.31.0', 1],
  ['Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)', 1],
];

/**
 * [country, weight, "region/city; region/city; ..."]: cities most visited first (the generator
 * gives the n-th city of a country weight 1/n).
 */
export const COUNTRIES: Array<[string, number, string]> = [
  [
    'United States',
    22,
    'New York/New York; California/Los Angeles; Illinois/Chicago; Texas/Houston; Arizona/Phoenix; Pennsylvania/Philadelphia; Texas/San Antonio; California/San Diego; Texas/Dallas; California/San Jose; Texas/Austin; Florida/Jacksonville; Texas/Fort Worth; Ohio/Columbus; North Carolina/Charlotte; California/San Francisco; Indiana/Indianapolis; Washington/Seattle; Colorado/Denver; District of Columbia/Washington; Massachusetts/Boston; Tennessee/Nashville; Michigan/Detroit; Oregon/Portland; Nevada/Las Vegas; Florida/Miami; Georgia/Atlanta; Minnesota/Minneapolis; Virginia/Ashburn; Louisiana/New Orleans',
  ],
  [
    'India',
    9,
    'Maharashtra/Mumbai; Delhi/New Delhi; Karnataka/Bengaluru; Telangana/Hyderabad; Tamil Nadu/Chennai; West Bengal/Kolkata; Maharashtra/Pune; Gujarat/Ahmedabad; Rajasthan/Jaipur; Uttar Pradesh/Lucknow; Uttar Pradesh/Kanpur; Maharashtra/Nagpur; Madhya Pradesh/Indore; Madhya Pradesh/Bhopal; Bihar/Patna; Gujarat/Surat; Punjab/Ludhiana; Kerala/Kochi; Haryana/Gurugram; Uttar Pradesh/Noida',
  ],
  [
    'Germany',
    8,
    'Berlin/Berlin; Bavaria/Munich; Hamburg/Hamburg; North Rhine-Westphalia/Cologne; Hesse/Frankfurt am Main; Baden-Württemberg/Stuttgart; North Rhine-Westphalia/Düsseldorf; Saxony/Leipzig; North Rhine-Westphalia/Dortmund; North Rhine-Westphalia/Essen; Bremen/Bremen; Saxony/Dresden; Lower Saxony/Hanover; Bavaria/Nuremberg; Baden-Württemberg/Freiburg im Breisgau',
  ],
  [
    'United Kingdom',
    7,
    'England/London; England/Manchester; England/Birmingham; England/Leeds; Scotland/Glasgow; Scotland/Edinburgh; England/Liverpool; England/Bristol; England/Sheffield; Wales/Cardiff; England/Newcastle upon Tyne; England/Nottingham; Northern Ireland/Belfast; England/Leicester; England/Brighton',
  ],
  [
    'France',
    5,
    "Île-de-France/Paris; Provence-Alpes-Côte d'Azur/Marseille; Auvergne-Rhône-Alpes/Lyon; Occitanie/Toulouse; Provence-Alpes-Côte d'Azur/Nice; Pays de la Loire/Nantes; Grand Est/Strasbourg; Occitanie/Montpellier; Nouvelle-Aquitaine/Bordeaux; Hauts-de-France/Lille; Brittany/Rennes; Grand Est/Reims",
  ],
  [
    'Brazil',
    5,
    'São Paulo/São Paulo; Rio de Janeiro/Rio de Janeiro; Federal District/Brasília; Bahia/Salvador; Ceará/Fortaleza; Minas Gerais/Belo Horizonte; Amazonas/Manaus; Paraná/Curitiba; Pernambuco/Recife; Rio Grande do Sul/Porto Alegre; Pará/Belém; Goiás/Goiânia',
  ],
  [
    'Spain',
    4,
    'Madrid/Madrid; Catalonia/Barcelona; Valencia/Valencia; Andalusia/Seville; Aragon/Zaragoza; Andalusia/Málaga; Region of Murcia/Murcia; Balearic Islands/Palma; Canary Islands/Las Palmas de Gran Canaria; Basque Country/Bilbao',
  ],
  [
    'Italy',
    4,
    'Lazio/Rome; Lombardy/Milan; Campania/Naples; Piedmont/Turin; Sicily/Palermo; Liguria/Genoa; Emilia-Romagna/Bologna; Tuscany/Florence; Apulia/Bari; Veneto/Venice',
  ],
  [
    'Canada',
    3.5,
    'Ontario/Toronto; Quebec/Montreal; British Columbia/Vancouver; Alberta/Calgary; Alberta/Edmonton; Ontario/Ottawa; Manitoba/Winnipeg; Quebec/Quebec City; Ontario/Hamilton; Nova Scotia/Halifax',
  ],
  [
    'Mexico',
    3,
    'Mexico City/Mexico City; Jalisco/Guadalajara; Nuevo León/Monterrey; Puebla/Puebla; Baja California/Tijuana; Guanajuato/León; Yucatán/Mérida; Quintana Roo/Cancún; Querétaro/Querétaro; Chihuahua/Ciudad Juárez',
  ],
  [
    'Netherlands',
    3,
    'North Holland/Amsterdam; South Holland/Rotterdam; South Holland/The Hague; Utrecht/Utrecht; North Brabant/Eindhoven; Groningen/Groningen; North Brabant/Tilburg; Gelderland/Nijmegen',
  ],
  [
    'Australia',
    2.5,
    'New South Wales/Sydney; Victoria/Melbourne; Queensland/Brisbane; Western Australia/Perth; South Australia/Adelaide; Queensland/Gold Coast; Australian Capital Territory/Canberra; Tasmania/Hobart',
  ],
  ['Japan', 2.5, 'Tokyo/Tokyo; Osaka/Osaka; Kanagawa/Yokohama; Aichi/Nagoya; Hokkaido/Sapporo; Fukuoka/Fukuoka; Kyoto/Kyoto; Hyogo/Kobe'],
  [
    'Turkey',
    2,
    'Istanbul/Istanbul; Ankara/Ankara; Izmir/Izmir; Bursa/Bursa; Antalya/Antalya; Adana/Adana; Konya/Konya; Gaziantep/Gaziantep',
  ],
  [
    'Poland',
    2,
    'Mazovia/Warsaw; Lesser Poland/Kraków; Łódź Voivodeship/Łódź; Lower Silesia/Wrocław; Greater Poland/Poznań; Pomerania/Gdańsk; West Pomerania/Szczecin; Silesia/Katowice',
  ],
  [
    'Indonesia',
    2,
    'Jakarta/Jakarta; East Java/Surabaya; West Java/Bandung; North Sumatra/Medan; Central Java/Semarang; South Sumatra/Palembang; South Sulawesi/Makassar; Bali/Denpasar',
  ],
  [
    'Philippines',
    1.5,
    'Metro Manila/Manila; Metro Manila/Quezon City; Central Visayas/Cebu City; Davao Region/Davao City; Metro Manila/Makati',
  ],
  ['Vietnam', 1.2, 'Ho Chi Minh/Ho Chi Minh City; Hanoi/Hanoi; Da Nang/Da Nang; Hai Phong/Haiphong; Can Tho/Can Tho'],
  ['South Korea', 1.2, 'Seoul/Seoul; Busan/Busan; Incheon/Incheon; Daegu/Daegu; Daejeon/Daejeon'],
  ['Thailand', 1, 'Bangkok/Bangkok; Chiang Mai/Chiang Mai; Phuket/Phuket; Chon Buri/Pattaya; Khon Kaen/Khon Kaen'],
  ['Argentina', 1, 'Buenos Aires F.D./Buenos Aires; Córdoba/Córdoba; Santa Fe/Rosario; Mendoza/Mendoza; Buenos Aires/La Plata'],
  ['Colombia', 1, 'Bogota D.C./Bogotá; Antioquia/Medellín; Valle del Cauca/Cali; Atlántico/Barranquilla; Bolívar/Cartagena'],
  ['South Africa', 1, 'Gauteng/Johannesburg; Western Cape/Cape Town; KwaZulu-Natal/Durban; Gauteng/Pretoria; Eastern Cape/Port Elizabeth'],
  ['Nigeria', 1, 'Lagos/Lagos; Federal Capital Territory/Abuja; Kano/Kano; Oyo/Ibadan; Rivers/Port Harcourt'],
  ['Egypt', 0.8, 'Cairo/Cairo; Alexandria/Alexandria; Giza/Giza; Qalyubia/Shubra El Kheima'],
  ['Saudi Arabia', 0.8, 'Riyadh Region/Riyadh; Mecca Region/Jeddah; Mecca Region/Mecca; Eastern Province/Dammam'],
  ['United Arab Emirates', 0.8, 'Dubai/Dubai; Abu Dhabi/Abu Dhabi; Sharjah/Sharjah; Ajman/Ajman'],
  ['Pakistan', 0.5, 'Sindh/Karachi; Punjab/Lahore; Islamabad/Islamabad; Punjab/Faisalabad; Punjab/Rawalpindi'],
  ['Sweden', 0.7, 'Stockholm/Stockholm; Västra Götaland/Gothenburg; Skåne/Malmö; Uppsala/Uppsala'],
  ['Switzerland', 0.7, 'Zurich/Zürich; Geneva/Geneva; Basel-City/Basel; Bern/Bern; Vaud/Lausanne'],
  ['Belgium', 0.7, 'Brussels Capital/Brussels; Flanders/Antwerp; Flanders/Ghent; Wallonia/Liège'],
  ['Austria', 0.6, 'Vienna/Vienna; Styria/Graz; Upper Austria/Linz; Salzburg/Salzburg; Tyrol/Innsbruck'],
  ['Portugal', 0.6, 'Lisbon/Lisbon; Porto/Porto; Braga/Braga; Faro/Faro'],
  ['Ireland', 0.5, 'Leinster/Dublin; Munster/Cork; Connacht/Galway; Munster/Limerick'],
  ['Denmark', 0.4, 'Capital Region/Copenhagen; Central Jutland/Aarhus; South Denmark/Odense; North Denmark/Aalborg'],
  ['Norway', 0.4, 'Oslo/Oslo; Vestland/Bergen; Trøndelag/Trondheim; Rogaland/Stavanger'],
  ['Czechia', 0.4, 'Prague/Prague; South Moravian/Brno; Moravian-Silesian/Ostrava; Plzeň Region/Plzeň'],
  ['Romania', 0.4, 'București/Bucharest; Cluj/Cluj-Napoca; Timiș/Timișoara; Iași/Iași'],
  ['Greece', 0.4, 'Attica/Athens; Central Macedonia/Thessaloniki; West Greece/Patras; Crete/Heraklion'],
  ['Israel', 0.4, 'Tel Aviv/Tel Aviv; Jerusalem/Jerusalem; Haifa/Haifa; Central District/Rishon LeZiyyon'],
  ['Singapore', 0.4, 'Singapore/Singapore'],
  ['Malaysia', 0.4, 'Kuala Lumpur/Kuala Lumpur; Penang/George Town; Johor/Johor Bahru; Selangor/Shah Alam'],
  ['Chile', 0.4, 'Santiago Metropolitan/Santiago; Valparaíso/Valparaíso; Biobío/Concepción; Antofagasta/Antofagasta'],
  ['Peru', 0.3, 'Lima/Lima; Arequipa/Arequipa; La Libertad/Trujillo; Cusco/Cusco'],
  ['New Zealand', 0.3, 'Auckland/Auckland; Wellington/Wellington; Canterbury/Christchurch; Waikato/Hamilton'],
];
